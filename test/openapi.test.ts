// GET /node/api/openapi.json: the OpenAPI 3.1 document of every route, reachable without
// signing in (api-extensions.md "Operations").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { call, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let doc: any;

/** Every route of the app, as `METHOD path` in OpenAPI form. */
const ROUTES = [
  'GET /node/api/health',
  'GET /node/api/openapi.json',
  'POST /node/api/users/session',
  'DELETE /node/api/users/session',
  'POST /node/api/users/{id}/auth-token',
  'DELETE /node/api/users/{id}/auth-token',
  'GET /node/api/users',
  'POST /node/api/users',
  'GET /node/api/users/current',
  'GET /node/api/users/{id}',
  'PATCH /node/api/users/{id}',
  'DELETE /node/api/users/{id}',
  'POST /node/api/users/search',
  'GET /node/api/users/security/log',
  // Measurements, states, incidents, triggers, live stream (issue 4).
  'POST /node/api/objects/{id}/stat',
  'POST /node/api/links/{id}/stat',
  'POST /node/api/entities/{id}/stat',
  'POST /node/api/stat',
  'GET /node/api/objects/{id}/stat',
  'GET /node/api/objects/{id}/stat/metrics',
  'GET /node/api/objects/{id}/history',
  'GET /node/api/objects/{id}/last',
  'PUT /node/api/objects/{id}/state',
  'DELETE /node/api/objects/{id}/state',
  'GET /node/api/objects/{id}/state-history',
  'GET /node/api/links/{id}/state-history',
  'GET /node/api/objects/{id}/state-triggers/runs',
  'GET /node/api/trigger-runs',
  'GET /node/api/incidents',
  'POST /node/api/incidents',
  'GET /node/api/incidents/{id}',
  'POST /node/api/incidents/{id}/acknowledge',
  'POST /node/api/incidents/{id}/unacknowledge',
  'POST /node/api/incidents/{id}/clear',
  'POST /node/api/incidents/{id}/clear-remove',
  'POST /node/api/incidents/{id}/undo-clear',
  'POST /node/api/incidents/{id}/comment',
  'GET /node/api/incidents/{id}/comments',
  'GET /node/api/incident-history',
  'GET /node/api/incident-history/{id}',
  'GET /node/api/incident-history/{id}/comments',
  'GET /node/api/incident-levels',
  'POST /node/api/incident-levels',
  'PATCH /node/api/incident-levels/{id}',
  'DELETE /node/api/incident-levels/{id}',
  'GET /node/api/events/stream',
  'GET /node/api/event-log',
  'GET /node/api/intake/counters',
  // Annotations and view presets (issue 6).
  'GET /node/api/history-annotations',
  'POST /node/api/history-annotations',
  'GET /node/api/history-annotations/{id}',
  'PATCH /node/api/history-annotations/{id}',
  'DELETE /node/api/history-annotations/{id}',
  'GET /node/api/presets',
  'POST /node/api/presets',
  'GET /node/api/presets/{id}',
  'PUT /node/api/presets/{id}',
  'PATCH /node/api/presets/{id}',
  'DELETE /node/api/presets/{id}',
  'POST /node/api/reports/prop-inventory/excel',
  // Maintenance windows (issue 20).
  'GET /node/api/maintenance',
  'POST /node/api/maintenance',
  'GET /node/api/maintenance/{id}',
  'PATCH /node/api/maintenance/{id}',
  'DELETE /node/api/maintenance/{id}',
];
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function operations(): Array<[string, string, any]> {
  const out: Array<[string, string, any]> = [];
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) if (METHODS.includes(method)) out.push([method.toUpperCase(), path, op]);
  }
  return out;
}

before(async () => {
  server = await startTestServer();
  const res = await call(server, 'GET', '/openapi.json');
  assert.equal(res.status, 200, res.text);
  doc = res.body;
});
after(async () => {
  await server?.destroy();
});

describe('GET /node/api/openapi.json', () => {
  it('answers JSON without authentication', async () => {
    const res = await call(server, 'GET', '/openapi.json');
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(typeof res.body, 'object');
  });

  it('is an OpenAPI 3.1.0 document with info', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(typeof doc.info.title, 'string');
    assert.equal(typeof doc.info.version, 'string');
    assert.ok(doc.info.version.length > 0);
    assert.equal(typeof doc.paths, 'object');
  });

  it('lists every route of the app, all under /node/api', () => {
    const found = new Set(operations().map(([m, p]) => `${m} ${p}`));
    for (const route of ROUTES) assert.ok(found.has(route), `missing: ${route}`);
    for (const path of Object.keys(doc.paths)) assert.match(path, /^\/node\/api\//);
  });

  it('writes path parameters the OpenAPI way, {id}, never :id', () => {
    for (const path of Object.keys(doc.paths)) assert.doesNotMatch(path, /\/:/, path);
    for (const [m, p, op] of operations()) {
      const inPath = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1]);
      const declared = (op.parameters ?? []).filter((x: any) => x.in === 'path');
      assert.deepEqual(declared.map((x: any) => x.name).sort(), inPath.sort(), `${m} ${p}`);
      for (const param of declared) assert.equal(param.required, true, `${m} ${p} ${param.name}`);
    }
  });

  it('gives every operation its responses, with a success status', () => {
    for (const [m, p, op] of operations()) {
      assert.equal(typeof op.responses, 'object', `${m} ${p}`);
      const codes = Object.keys(op.responses);
      assert.ok(codes.length > 0, `${m} ${p} has no responses`);
      assert.ok(codes.some((c) => /^2\d\d$/.test(c)), `${m} ${p}: ${codes.join(',')}`);
    }
    const created = doc.paths['/node/api/users'].post.responses;
    assert.ok(created['201'], 'POST /users answers 201');
    assert.ok(doc.paths['/node/api/users/{id}'].delete.responses['204']);
  });

  it('documents request bodies and query parameters from the route schemas', () => {
    const create = doc.paths['/node/api/users'].post;
    const schema = create.requestBody.content['application/json'].schema;
    assert.deepEqual([...schema.required].sort(), ['login', 'password']);
    assert.ok(schema.properties.permissions);
    assert.ok(doc.paths['/node/api/users/search'].post.requestBody);
    const logParams = doc.paths['/node/api/users/security/log'].get.parameters.map((x: any) => `${x.in}:${x.name}`);
    for (const name of ['from', 'to', 'limit', 'skip', 'filter']) assert.ok(logParams.includes(`query:${name}`), name);
    const listParams = doc.paths['/node/api/users'].get.parameters.map((x: any) => `${x.in}:${x.name}`);
    assert.deepEqual(listParams.sort(), ['query:limit', 'query:skip']);
  });

  it('lists the built-in preset keys', () => {
    const text = JSON.stringify(doc.paths['/node/api/presets']);
    for (const key of ['incident-page-preset-picker', 'incident-history-page-preset-picker', 'event-log-page-preset-picker']) assert.ok(text.includes(key), key);
  });

  it('never documents a password in a response', () => {
    const text = JSON.stringify(operations().map(([, , op]) => op.responses));
    assert.doesNotMatch(text, /password/i);
  });

  it('declares the three security schemes: basic, session cookie and api-token query', () => {
    const schemes = doc.components.securitySchemes;
    const byKind = Object.values<any>(schemes);
    assert.ok(byKind.some((s) => s.type === 'http' && s.scheme === 'basic'), 'HTTP Basic');
    assert.ok(byKind.some((s) => s.type === 'apiKey' && s.in === 'cookie' && s.name === 'sid'), 'session cookie sid');
    assert.ok(byKind.some((s) => s.type === 'apiKey' && s.in === 'query' && s.name === 'api-token'), 'api-token query');
    const names = Object.keys(schemes);
    for (const req of doc.security) for (const name of Object.keys(req)) assert.ok(names.includes(name), name);
    assert.equal(doc.security.length, 3);
  });

  it('marks the public routes as needing no security', () => {
    const publicRoutes: Array<[string, string]> = [['get', '/node/api/health'], ['get', '/node/api/openapi.json'], ['post', '/node/api/users/session']];
    for (const [m, p] of publicRoutes) {
      assert.deepEqual(doc.paths[p][m].security, [], `${m} ${p}`);
    }
    assert.equal(doc.paths['/node/api/users'].get.security, undefined, 'private routes use the global security');
  });
});
