// The error contract (api-extensions.md "Errors"): every failure is JSON {code, message} with
// a fitting status, for unknown routes, body limits, bad JSON and schema violations alike.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAuth, call, startTestServer, type Reply, type TestServer } from './helpers/server.js';

const BODY_LIMIT = 2048;
const MAX_DEPTH = 16;
let server: TestServer;

before(async () => {
  server = await startTestServer({ http: { bodyLimit: BODY_LIMIT, jsonMaxDepth: MAX_DEPTH } });
});
after(async () => {
  await server?.destroy();
});

/** Status, code, exact body keys and JSON content type of an error answer. */
function assertError(res: Reply, status: number, code: string, messagePart?: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(typeof res.body, 'object', res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message'], res.text);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.message, 'string');
  assert.ok(res.body.message.length > 0);
  if (messagePart) assert.match(res.body.message, messagePart);
}

const post = (path: string, rawBody: string, contentType = 'application/json') =>
  call(server, 'POST', path, { headers: adminAuth, rawBody, contentType });

/** A JSON object nested `depth` levels deep: {"a":{"a":...{}}}. */
const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('unknown routes', () => {
  it('an unknown /node/api path is 404 ResourceNotFound, with or without credentials', async () => {
    for (const headers of [{}, adminAuth]) {
      assertError(await call(server, 'GET', '/no-such-thing', { headers }), 404, 'ResourceNotFound', /no-such-thing/);
      assertError(await call(server, 'POST', '/users/1/nothing-here', { headers, body: {} }), 404, 'ResourceNotFound');
    }
  });

  it('a known path with a method it does not have is 404 too', async () => {
    assertError(await call(server, 'PUT', '/users', { headers: adminAuth, body: {} }), 404, 'ResourceNotFound');
    assertError(await call(server, 'DELETE', '/users/search', { headers: adminAuth }), 404, 'ResourceNotFound');
  });

  it('the query string is not echoed into the message', async () => {
    const res = await call(server, 'GET', '/no-such-thing?api-token=secret-value');
    assertError(res, 404, 'ResourceNotFound');
    assert.doesNotMatch(res.body.message, /secret-value/);
  });
});

describe('request bodies', () => {
  it('a body over http.bodyLimit is 413 PayloadTooLarge', async () => {
    const body = JSON.stringify({ login: 'big', password: 'x'.repeat(BODY_LIMIT) });
    assertError(await post('/users', body), 413, 'PayloadTooLarge');
    const search = JSON.stringify({ login: { $in: Array.from({ length: 400 }, (_, i) => `user-${i}`) } });
    assert.ok(search.length > BODY_LIMIT);
    assertError(await post('/users/search', search), 413, 'PayloadTooLarge');
  });

  it('a body just under the limit is accepted', async () => {
    const body = JSON.stringify({ login: 'near-limit', password: 'pw', contacts: ['x'.repeat(BODY_LIMIT - 100)] });
    assert.ok(body.length <= BODY_LIMIT);
    const res = await post('/users', body);
    assert.equal(res.status, 201, res.text);
  });

  it('malformed JSON is 400 InvalidContent', async () => {
    for (const raw of ['{"login":', '{login: "x"}', "{'a':1}", '{"a":1}}', '{"a":1,}', 'nul', '\u0000']) {
      assertError(await post('/users', raw), 400, 'InvalidContent');
    }
  });

  it(`JSON nested deeper than http.jsonMaxDepth (${MAX_DEPTH}) is 400 InvalidContent`, async () => {
    assertError(await post('/users/search', nested(MAX_DEPTH + 1)), 400, 'InvalidContent', new RegExp(String(MAX_DEPTH)));
    assertError(await post('/users/search', '['.repeat(1000) + ']'.repeat(1000)), 400, 'InvalidContent');
    // Unclosed brackets count as well: the depth check runs before any parsing.
    assertError(await post('/users/search', '['.repeat(1500)), 400, 'InvalidContent');
    // At the limit the body is parsed and searched (an equality on field "a" finds no one).
    const atLimit = await post('/users/search', nested(MAX_DEPTH));
    assert.equal(atLimit.status, 200, atLimit.text);
    assert.deepEqual(atLimit.body, []);
  });

  it('brackets inside strings do not count toward the depth', async () => {
    const res = await post('/users/search', JSON.stringify({ login: '[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{{{{{{{{{{' }));
    assert.equal(res.status, 200, res.text);
  });

  it('a body of the wrong JSON type is 400 InvalidContent', async () => {
    for (const raw of ['[]', '[{"login":"a","password":"b"}]', '"text"', '42', 'true', 'null']) {
      assertError(await post('/users', raw), 400, 'InvalidContent');
    }
  });

  it('an empty body where one is required is 400 InvalidContent', async () => {
    assertError(await post('/users', ''), 400, 'InvalidContent');
    assertError(await call(server, 'POST', '/users', { headers: adminAuth }), 400, 'InvalidContent');
  });

  it('a missing required field is 400 BadRequest naming it', async () => {
    assertError(await post('/users', JSON.stringify({ password: 'pw' })), 400, 'BadRequest', /login/);
    assertError(await post('/users', JSON.stringify({ login: 'no-password' })), 400, 'BadRequest', /password/);
  });

  it('a field of the wrong type or out of range is 400 BadRequest naming it', async () => {
    assertError(await post('/users', JSON.stringify({ login: 'typed', password: { secret: 1 } })), 400, 'BadRequest', /password/);
    assertError(await post('/users', JSON.stringify({ login: 'typed', password: 'pw', permissions: { a: 1 } })), 400, 'BadRequest', /permissions/);
    assertError(await post('/users', JSON.stringify({ login: 'has space', password: 'pw' })), 400, 'BadRequest', /login/);
    assertError(await post('/users', JSON.stringify({ login: 'typed', password: 'pw', activeTo: -5 })), 400, 'BadRequest', /activeTo/);
    assertError(await post('/users', JSON.stringify({ login: 'typed', password: 'pw', objectPermissions: { include: [{}] } })), 400, 'BadRequest', /objectPermissions/);
  });

  it('a bad query parameter is 400 BadRequest naming it', async () => {
    assertError(await call(server, 'GET', '/users?limit=many', { headers: adminAuth }), 400, 'BadRequest', /limit/);
    assertError(await call(server, 'GET', '/users?skip=-1', { headers: adminAuth }), 400, 'BadRequest', /skip/);
  });

  it('an unsupported content type is 400', async () => {
    const json = JSON.stringify({ login: 'ctype', password: 'pw' });
    for (const type of ['application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'image/png', 'application/jsonp']) {
      assertError(await post('/users', json, type), 400, 'InvalidContent');
    }
    // Plain text is parsed as a string (comment bodies), which is not the object this route takes.
    assertError(await post('/users', json, 'text/plain'), 400, 'InvalidContent');
    assert.equal((await call(server, 'GET', '/users/search', { headers: adminAuth })).status, 404);
  });

  it('JSON content types with parameters or a +json suffix are accepted', async () => {
    const cases: Array<[string, string]> = [
      ['application/json; charset=utf-8', 'ct-charset'],
      ['Application/JSON', 'ct-upper'],
      ['application/vnd.api+json', 'ct-vnd'],
      ['application/merge-patch+json; charset=UTF-8', 'ct-merge'],
    ];
    for (const [type, login] of cases) {
      const res = await post('/users', JSON.stringify({ login, password: 'pw' }), type);
      assert.equal(res.status, 201, `${type}: ${res.text}`);
    }
  });

  it('__proto__ and constructor keys are dropped, not merged into objects', async () => {
    const raw = '{"login":"proto","password":"pw","__proto__":{"permissions":["manage-users"]},"constructor":{"prototype":{"x":1}}}';
    const res = await post('/users', raw);
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(res.body.permissions, []);
    assert.equal(({} as Record<string, unknown>).x, undefined);
  });
});

describe('the error body', () => {
  it('is exactly {code, message} for every kind of failure', async () => {
    const failures: Array<[Promise<Reply>, number, string]> = [
      [call(server, 'GET', '/users'), 401, 'Unauthorized'],
      [call(server, 'GET', '/users', { headers: { authorization: 'Basic !!!' } }), 401, 'Unauthorized'],
      [call(server, 'GET', '/users/424242', { headers: adminAuth }), 404, 'ResourceNotFound'],
      [call(server, 'POST', '/users', { headers: adminAuth, body: { login: 'admin', password: 'x' } }), 409, 'Conflict'],
      [post('/users/search', '{"$where":"1"}'), 400, 'BadRequest'],
      [post('/users', '{'), 400, 'InvalidContent'],
      [post('/users', 'x'.repeat(BODY_LIMIT + 1)), 413, 'PayloadTooLarge'],
      [call(server, 'GET', '/nowhere'), 404, 'ResourceNotFound'],
    ];
    for (const [pending, status, code] of failures) assertError(await pending, status, code);
  });

  it('health and openapi.json answer without credentials (no error body)', async () => {
    assert.equal((await call(server, 'GET', '/health')).status, 200);
    assert.equal((await call(server, 'GET', '/openapi.json')).status, 200);
  });

  // Fastify's router refuses a path with bad percent-encoding before any hook or error
  // handler, in its own shape {error, code, message, statusCode}. errors.ts exports
  // handleFrameworkError for it; app.ts must pass it as Fastify's `frameworkErrors` option.
  it('is {code, message} for a path with bad percent-encoding too', async () => {
    assertError(await call(server, 'GET', '/users/%E0%A4%A', { headers: adminAuth }), 400, 'BadRequest');
    assertError(await call(server, 'GET', '/no%zz'), 400, 'BadRequest');
  });
});
