// The settings documents' answer schemas (modules/entities/settings-schemas.ts) change nothing
// a client sees: every document reads back byte for byte as the validators stored it (same
// keys, same order, free-form condition keys kept), and a bad clause is still the
// validator's own 400.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { Value } from 'typebox/value';
import { SETTINGS_ITEM_SCHEMAS } from '../src/modules/entities/settings-schemas.js';
import { adminClient } from './helpers/entities.js';
import { type TestServer, useTestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => void (server = s));
const { asAdmin, mkObject } = adminClient(() => server);

const DOCS = {
  'state-conditions': ['stateConditions', [
    { condition: { 'host.name': { _m: '^web[0-9]+$' }, _duration: 60000, _or: [{ a: { _eq: 1 } }, { b: { _exists: true } }] }, state: 5, description: 'd' },
  ]],
  'incident-conditions': ['incidentConditions', [
    { id: 'x', condition: { y: { _lt: 3 } }, clearCondition: { y: { _gte: 5 } }, text: 'u', state: '2' },
    { id: '1', condition: { z: { _eq: '1' } }, text: '', state: '1' },
  ]],
  'state-triggers': ['stateTriggers', [
    { type: 'webhook', payload: { url: 'https://example.com/hook', method: 'PUT', headers: { 'x-b': '1', 'x-a': '2' }, timeoutMs: 500 }, states: [5, 4], duration: 1000 },
    { type: 'e-mail', payload: { to: ['a@example.com', 'b@example.com'], subject: 's' }, states: [4], duration: 0 },
  ]],
  'stat-rules': ['statRules', [
    { actions: [{ type: 'set', metric: 'rate', value: '{{new.count}} * 2' }, { type: 'extend' }], condition: { count: { _exists: true } } },
    { actions: [{ type: 'drop' }] },
  ]],
} as const;

it('each settings document reads back exactly as stored, and matches its schema', async () => {
  const o = await mkObject({ name: 'schema-settings' });
  for (const [path, [kind, doc]] of Object.entries(DOCS)) {
    const put = await asAdmin('PUT', `/objects/${o.id}/${path}`, doc);
    assert.equal(put.status, 200, put.text);
    assert.equal(put.text, JSON.stringify(doc), `${path}: PUT answers the document as written`);
    const got = await asAdmin('GET', `/objects/${o.id}/${path}`);
    assert.equal(got.text, JSON.stringify(doc), `${path}: GET reads it back unchanged`);
    for (const item of got.body) assert.ok(Value.Check(SETTINGS_ITEM_SCHEMAS[kind], item), `${path}: ${JSON.stringify(item)}`);
  }
});

it('a bad item is still refused by the validator, naming it', async () => {
  const o = await mkObject({ name: 'schema-settings-bad' });
  const res = await asAdmin('PUT', `/objects/${o.id}/state-triggers`, [7]);
  assert.equal(res.status, 400);
  assert.equal(res.body.message, 'stateTriggers[0]: expected an object');
});
