import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConditionError } from './condition-syntax.js';
import {
  SETTINGS_LIMITS,
  validateIncidentConditions,
  validateStateConditions,
  validateStateTriggers,
} from './entity-settings.js';

const STATES: ReadonlySet<number> = new Set([0, 1, 2, 3]);
const LEVELS: ReadonlySet<string> = new Set(['1', '2', 'critical']);

/** Asserts that `run` throws a ConditionError whose message is (or matches) `message`. */
function refuses(run: () => unknown, message: string | RegExp): void {
  assert.throws(run, (err: unknown) => {
    assert.ok(err instanceof ConditionError, `not a ConditionError: ${String(err)}`);
    if (typeof message === 'string') assert.equal(err.message, message);
    else assert.match(err.message, message);
    return true;
  });
}

const sc = (v: unknown) => validateStateConditions(v, STATES);
const ic = (v: unknown) => validateIncidentConditions(v, LEVELS);
const st = (v: unknown) => validateStateTriggers(v, STATES);

// ---- state conditions ----

test('state conditions: valid documents are copied with description defaulted', () => {
  assert.deepEqual(sc([]), []);
  assert.deepEqual(
    sc([
      { condition: { 'cpu.load1': { _gt: '4' } }, state: 2, description: 'busy' },
      { state: 0, condition: {} },
    ]),
    [
      { condition: { 'cpu.load1': { _gt: '4' } }, state: 2, description: 'busy' },
      { condition: {}, state: 0, description: '' },
    ],
  );
});

test('state conditions: shape errors name the element', () => {
  for (const v of [null, {}, 'x', 1]) refuses(() => sc(v), 'stateConditions: expected an array');
  refuses(() => sc(Array.from({ length: SETTINGS_LIMITS.maxItems + 1 }, () => ({ condition: {}, state: 0 }))), 'stateConditions: more than 1000 items');
  assert.equal(sc(Array.from({ length: SETTINGS_LIMITS.maxItems }, () => ({ condition: {}, state: 0 }))).length, 1000);
  refuses(() => sc([{ condition: {}, state: 0 }, null]), 'stateConditions[1]: expected an object');
  refuses(() => sc([{ condition: {}, state: 0, extra: 1 }]), 'stateConditions[0]: unknown key extra');
  refuses(() => sc([{ state: 0 }]), 'stateConditions[0].condition: expected a condition object');
  refuses(() => sc([{ condition: {}, state: 0, description: 5 }]), 'stateConditions[0].description: expected a string');
});

test('state conditions: the state must be a known whole-number id', () => {
  refuses(() => sc([{ condition: {}, state: 0 }, { condition: {}, state: 7 }]), 'stateConditions[1].state: unknown state 7');
  for (const bad of ['1', 1.5, null, undefined, true]) {
    refuses(() => sc([{ condition: {}, state: bad }]), 'stateConditions[0].state: expected a whole-number state id');
  }
});

test('state conditions: condition errors carry the element path', () => {
  refuses(
    () => sc([{ condition: {}, state: 0 }, { condition: {}, state: 1 }, { condition: { 'cpu.load1': { _foo: 1 } }, state: 1 }]),
    'stateConditions[2].condition.cpu.load1: unknown operator _foo',
  );
  refuses(() => sc([{ condition: { m: { _m: '(a)\\1' } }, state: 1 }]), /^stateConditions\[0\]\.condition\.m\._m: invalid regular expression/);
});

// ---- incident conditions ----

test('incident conditions: defaults, clearCondition kept, numeric level turned to a string', () => {
  assert.deepEqual(
    ic([
      { id: 'disk', condition: { 'disk.free': { _lt: '10' } }, clearCondition: { 'disk.free': { _gte: '20' } }, text: 'disk low', state: 'critical' },
      { condition: {}, state: 2 },
    ]),
    [
      { id: 'disk', condition: { 'disk.free': { _lt: '10' } }, clearCondition: { 'disk.free': { _gte: '20' } }, text: 'disk low', state: 'critical' },
      { id: '1', condition: {}, text: '', state: '2' },
    ],
  );
});

test('incident conditions: missing ids take the next free integer string, given ones are kept', () => {
  const ids = (items: Array<{ id?: string }>) => ic(items.map((x) => ({ ...x, condition: {}, state: '1' }))).map((x) => x.id);
  assert.deepEqual(ids([{}, {}, {}]), ['1', '2', '3']);
  assert.deepEqual(ids([{ id: '2' }, {}, {}]), ['2', '1', '3']);
  assert.deepEqual(ids([{}, { id: '1' }, {}, { id: '3' }, {}]), ['2', '1', '4', '3', '5']);
  assert.deepEqual(ids([{ id: 'a' }, {}, { id: '01' }]), ['a', '1', '01']);
  // Position-stable: appending an item without an id leaves every earlier id unchanged.
  assert.deepEqual(ids([{}, { id: '5' }, {}]), ['1', '5', '2']);
  assert.deepEqual(ids([{}, { id: '5' }, {}, {}]), ['1', '5', '2', '3']);
});

test('incident conditions: ids must be unique non-empty strings', () => {
  refuses(() => ic([{ id: '1', condition: {}, state: '1' }, { id: '1', condition: {}, state: '1' }]), 'incidentConditions[1].id: duplicate id "1"');
  for (const bad of ['', 1, null, 'x'.repeat(101)]) {
    refuses(() => ic([{ id: bad, condition: {}, state: '1' }]), 'incidentConditions[0].id: expected a non-empty string of at most 100 characters');
  }
});

test('incident conditions: element errors name the element', () => {
  for (const v of [null, {}]) refuses(() => ic(v), 'incidentConditions: expected an array');
  refuses(() => ic([{ condition: {}, state: '1', level: 1 }]), 'incidentConditions[0]: unknown key level');
  refuses(() => ic([{ condition: {}, state: '1' }, { condition: {}, state: '9' }]), 'incidentConditions[1].state: unknown incident level "9"');
  refuses(() => ic([{ condition: {}, state: 3 }]), 'incidentConditions[0].state: unknown incident level "3"');
  for (const bad of [null, undefined, true, ['1']]) {
    refuses(() => ic([{ condition: {}, state: bad }]), 'incidentConditions[0].state: expected an incident level id (string or number)');
  }
  refuses(() => ic([{ condition: {}, state: '1', text: 1 }]), 'incidentConditions[0].text: expected a string');
  refuses(() => ic([{ state: '1' }]), 'incidentConditions[0].condition: expected a condition object');
  refuses(() => ic([{ condition: {}, clearCondition: null, state: '1' }]), 'incidentConditions[0].clearCondition: expected a condition object');
  refuses(
    () => ic([{ condition: {}, clearCondition: { _or: [{ m: { _gt: [1] } }] }, state: '1' }]),
    'incidentConditions[0].clearCondition._or[0].m._gt: _gt takes a string, number or boolean',
  );
});

// ---- state triggers ----

test('state triggers: webhook and e-mail, with defaults filled', () => {
  assert.deepEqual(
    st([
      { type: 'webhook', payload: { url: 'https://hooks.example.com/x?a=1' }, states: [2, 3] },
      { type: 'webhook', payload: { url: 'http://10.0.0.1:8080/', method: 'PUT', headers: { Authorization: 'Bearer t', 'X-A': '' }, timeoutMs: 60000 }, states: [1], duration: 30000 },
      { type: 'e-mail', payload: { to: 'ops@example.com' }, states: [0] },
      { type: 'e-mail', payload: { to: ['a@b', 'ops@example.com'], subject: 'Vigil: state changed' }, states: [3], duration: 0 },
    ]),
    [
      { type: 'webhook', payload: { url: 'https://hooks.example.com/x?a=1', method: 'POST' }, states: [2, 3], duration: 0 },
      { type: 'webhook', payload: { url: 'http://10.0.0.1:8080/', method: 'PUT', headers: { Authorization: 'Bearer t', 'X-A': '' }, timeoutMs: 60000 }, states: [1], duration: 30000 },
      { type: 'e-mail', payload: { to: 'ops@example.com' }, states: [0], duration: 0 },
      { type: 'e-mail', payload: { to: ['a@b', 'ops@example.com'], subject: 'Vigil: state changed' }, states: [3], duration: 0 },
    ],
  );
});

const hook = (payload: unknown, extra: Record<string, unknown> = {}) => st([{ type: 'webhook', payload, states: [1], ...extra }]);
const mail = (payload: unknown) => st([{ type: 'e-mail', payload, states: [1] }]);

test('state triggers: element shape, type, states and duration', () => {
  for (const v of [null, {}]) refuses(() => st(v), 'stateTriggers: expected an array');
  refuses(() => st([1]), 'stateTriggers[0]: expected an object');
  refuses(() => hook({ url: 'https://x' }, { when: 1 }), 'stateTriggers[0]: unknown key when');
  for (const bad of ['sms', 'Webhook', 'email', undefined, 1]) {
    refuses(() => st([{ type: bad, payload: {}, states: [1] }]), 'stateTriggers[0].type: expected "webhook" or "e-mail"');
  }
  for (const bad of [[], undefined, 1, '1']) {
    refuses(() => hook({ url: 'https://x' }, { states: bad }), 'stateTriggers[0].states: expected a non-empty array of state ids');
  }
  refuses(() => hook({ url: 'https://x' }, { states: [1, 9] }), 'stateTriggers[0].states[1]: unknown state 9');
  refuses(() => hook({ url: 'https://x' }, { states: [1, '2'] }), 'stateTriggers[0].states[1]: expected a whole-number state id');
  refuses(() => hook({ url: 'https://x' }, { states: [1, 2, 1] }), 'stateTriggers[0].states[2]: duplicate state 1');
  for (const bad of [-1, 0.5, '100', null]) {
    refuses(() => hook({ url: 'https://x' }, { duration: bad }), 'stateTriggers[0].duration: expected a non-negative whole number of milliseconds');
  }
  for (const bad of [null, undefined, [], 'https://x']) refuses(() => hook(bad), 'stateTriggers[0].payload: expected an object');
});

test('state triggers: webhook payload checks', () => {
  refuses(() => hook({ url: 'https://x', body: '{}' }), 'stateTriggers[0].payload: unknown key body');
  for (const bad of [undefined, 1, 'x'.repeat(2001)]) {
    refuses(() => hook({ url: bad }), 'stateTriggers[0].payload.url: expected a URL string of at most 2000 characters');
  }
  for (const bad of ['', 'not a url', '/relative', 'http://']) refuses(() => hook({ url: bad }), 'stateTriggers[0].payload.url: invalid URL');
  for (const bad of ['ftp://x/', 'file:///etc/passwd', 'javascript:alert(1)', 'mailto:a@b', 'ws://x/']) {
    refuses(() => hook({ url: bad }), 'stateTriggers[0].payload.url: only http: and https: URLs are allowed');
  }
  for (const bad of ['GET', 'post', 'DELETE', null, 1]) refuses(() => hook({ url: 'https://x', method: bad }), 'stateTriggers[0].payload.method: expected "POST" or "PUT"');
  for (const bad of [null, [], 'a: b']) refuses(() => hook({ url: 'https://x', headers: bad }), 'stateTriggers[0].payload.headers: expected an object of string values');
  refuses(() => hook({ url: 'https://x', headers: { 'X-A': 1 } }), 'stateTriggers[0].payload.headers.X-A: expected a string without CR, LF or NUL');
  refuses(() => hook({ url: 'https://x', headers: { 'X-A': 'a\r\nX-B: b' } }), 'stateTriggers[0].payload.headers.X-A: expected a string without CR, LF or NUL');
  for (const name of ['', 'X A', 'X:A', 'é']) refuses(() => hook({ url: 'https://x', headers: { [name]: 'v' } }), `stateTriggers[0].payload.headers: invalid header name ${JSON.stringify(name)}`);
  const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`x-${i}`, 'v']));
  refuses(() => hook({ url: 'https://x', headers: many }), 'stateTriggers[0].payload.headers: more than 50 headers');
  for (const bad of [0, 60001, 1.5, '1000', null]) {
    refuses(() => hook({ url: 'https://x', timeoutMs: bad }), 'stateTriggers[0].payload.timeoutMs: expected a whole number of milliseconds from 1 to 60000');
  }
  assert.deepEqual(hook({ url: 'https://x', timeoutMs: 1 })[0]!.payload, { url: 'https://x', method: 'POST', timeoutMs: 1 });
});

test('state triggers: e-mail payload checks', () => {
  refuses(() => mail({ to: 'a@b', cc: 'c@d' }), 'stateTriggers[0].payload: unknown key cc');
  for (const bad of ['', 'ops', '@b', 'a@', 'a@b@c', 'a b@c', 'a@b\r\nBcc: x@y', 'a@b,c@d', 'A <a@b>', 1, null, undefined]) {
    refuses(() => mail({ to: bad }), new RegExp(`^stateTriggers\\[0\\]\\.payload\\.to: expected an e-mail address`));
  }
  refuses(() => mail({ to: ['a@b', 'nope'] }), 'stateTriggers[0].payload.to[1]: expected an e-mail address, got "nope"');
  refuses(() => mail({ to: [] }), 'stateTriggers[0].payload.to: expected 1 to 100 addresses');
  refuses(() => mail({ to: Array.from({ length: 101 }, () => 'a@b') }), 'stateTriggers[0].payload.to: expected 1 to 100 addresses');
  refuses(() => mail({ to: `${'a'.repeat(250)}@b.cd` }), /^stateTriggers\[0\]\.payload\.to: expected an e-mail address/);
  for (const bad of [1, null, 'a\nBcc: x@y', 'x'.repeat(1001)]) {
    refuses(() => mail({ to: 'a@b', subject: bad }), 'stateTriggers[0].payload.subject: expected a single-line string of at most 1000 characters');
  }
});

test('the later elements of a document are checked too', () => {
  refuses(
    () => st([{ type: 'e-mail', payload: { to: 'a@b' }, states: [1] }, { type: 'webhook', payload: { url: 'gopher://x' }, states: [2] }]),
    'stateTriggers[1].payload.url: only http: and https: URLs are allowed',
  );
});
