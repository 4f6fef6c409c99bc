// POST /users/search, filter rules 1-5 of monitoring-api.md, and the refusals that keep a
// user-written filter from hurting the server (never a 500, never a hang).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, adminAuth, call, createUser, startTestServer, type Reply, type TestServer } from './helpers/server.js';

let server: TestServer;
const EVIL_LOGIN = 'a'.repeat(60) + '!';

before(async () => {
  server = await startTestServer();
  await createUser(server, {
    login: 'alice',
    password: 'pw-alice',
    email: 'Alice@Example.org',
    language: 'en',
    permissions: ['manage-objects', 'view-section-stat'],
    objectPermissions: { include: [1, 2] },
  });
  await createUser(server, {
    login: 'bob',
    password: 'pw-bob',
    email: 'bob@example.org',
    language: 'de',
    permissions: ['manage-history'],
    objectPermissions: { include: [1, 2], exclude: [3] },
  });
  await createUser(server, { login: 'dave', password: 'pw-dave', email: 'dave@other.net', language: 'de' });
  await createUser(server, { login: EVIL_LOGIN, password: 'pw-evil', email: 'evil@other.net', language: 'xx' });
});
after(async () => {
  await server?.destroy();
});

const search = (filter: unknown, query = '') => call(server, 'POST', `/users/search${query}`, { headers: adminAuth, body: filter });

/** The logins found, sorted; asserts a 200 array first. */
async function found(filter: unknown, query = ''): Promise<string[]> {
  const res = await search(filter, query);
  assert.equal(res.status, 200, `${JSON.stringify(filter)}: ${res.text}`);
  assert.ok(Array.isArray(res.body));
  return res.body.map((u: { login: string }) => u.login).sort();
}

function assertBadRequest(res: Reply, filter: unknown, messagePart?: RegExp): void {
  assert.equal(res.status, 400, `${JSON.stringify(filter)}: ${res.text}`);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message']);
  assert.equal(res.body.code, 'BadRequest');
  if (messagePart) assert.match(res.body.message, messagePart);
}

const ALL = ['admin', 'alice', 'bob', 'dave', EVIL_LOGIN].sort();

describe('rules 1-3: any field, empty filter, operators', () => {
  it('an empty filter returns every user, as GET /users does', async () => {
    assert.deepEqual(await found({}), ALL);
    const list = await call(server, 'GET', '/users', { headers: adminAuth });
    const res = await search({});
    assert.deepEqual(res.body, list.body);
    for (const u of res.body) assert.equal('password' in u || 'passwordHash' in u, false);
  });

  it('no body at all is the empty filter too', async () => {
    const bare = await call(server, 'POST', '/users/search', { headers: adminAuth });
    assert.equal(bare.status, 200, bare.text);
    assert.deepEqual(bare.body.map((u: { login: string }) => u.login).sort(), ALL);
    const emptyJson = await call(server, 'POST', '/users/search', { headers: adminAuth, rawBody: '', contentType: 'application/json' });
    assert.equal(emptyJson.status, 200, emptyJson.text);
  });

  it('filters on any top-level user field', async () => {
    assert.deepEqual(await found({ login: 'alice' }), ['alice']);
    assert.deepEqual(await found({ language: 'de' }), ['bob', 'dave']);
    assert.deepEqual(await found({ language: 'de', login: 'dave' }), ['dave']);
    assert.deepEqual(await found({ status: 2 }), ALL);
    assert.deepEqual(await found({ status: 3 }), []);
    assert.deepEqual(await found({ permissions: 'manage-objects' }), ['admin', 'alice'], 'an array field matches one of its elements');
    assert.deepEqual(await found({ contacts: { $size: 0 } }), ALL);
    const bob = (await search({ login: 'bob' })).body[0];
    assert.deepEqual(await found({ id: bob.id }), ['bob']);
    assert.deepEqual(await found({ login: 'nobody-has-this' }), []);
  });

  it('takes MongoDB data operators', async () => {
    assert.deepEqual(await found({ language: { $in: ['en', 'xx'] } }), ['admin', 'alice', EVIL_LOGIN].sort());
    assert.deepEqual(await found({ language: { $nin: ['en', 'xx'] } }), ['bob', 'dave']);
    assert.deepEqual(await found({ $or: [{ login: 'alice' }, { email: 'dave@other.net' }] }), ['alice', 'dave']);
    assert.deepEqual(await found({ $and: [{ language: 'de' }, { permissions: { $size: 0 } }] }), ['dave']);
    assert.deepEqual(await found({ login: { $ne: 'admin' }, language: { $exists: true }, email: { $gt: 'dave' } }), ['dave', EVIL_LOGIN].sort());
    assert.deepEqual(await found({ permissions: { $all: ['manage-objects', 'view-section-stat'] } }), ['admin', 'alice']);
    assert.deepEqual(await found({ login: { $not: { $regex: '^a' } } }), ['bob', 'dave']);
  });

  it('$regex with $options "i" matches permissions case-insensitively; without it, case counts', async () => {
    assert.deepEqual(await found({ permissions: { $regex: 'MANAGE-HIST', $options: 'i' } }), ['admin', 'bob']);
    assert.deepEqual(await found({ permissions: { $regex: 'MANAGE-HIST' } }), []);
    assert.deepEqual(await found({ permissions: { $regex: '^view-section-' } }), ['admin', 'alice']);
    assert.deepEqual(await found({ login: { $regex: '^B', $options: 'i' } }), ['bob']);
  });

  it('pages the matches with limit and skip', async () => {
    const all = await search({ language: 'de' });
    const page = await search({ language: 'de' }, '?limit=1&skip=1');
    assert.equal(page.status, 200);
    assert.deepEqual(page.body, all.body.slice(1, 2));
  });
});

describe('rule 4: email', () => {
  it('an exact email string is case-sensitive', async () => {
    assert.deepEqual(await found({ email: 'Alice@Example.org' }), ['alice']);
    assert.deepEqual(await found({ email: 'alice@example.org' }), []);
    assert.deepEqual(await found({ email: 'Alice@Example' }), [], 'exact, not a substring');
  });

  it('{contains} matches a case-sensitive substring', async () => {
    assert.deepEqual(await found({ email: { contains: 'Example' } }), ['alice']);
    assert.deepEqual(await found({ email: { contains: 'example' } }), ['bob']);
    assert.deepEqual(await found({ email: { contains: '@other.' } }), ['dave', EVIL_LOGIN].sort());
    assert.deepEqual(await found({ email: { contains: 'OTHER' } }), []);
    // and negated: every user whose email lacks the part
    const lacking = await found({ email: { $not: { contains: '@other.' } } });
    assert.ok(lacking.includes('alice') && lacking.includes('bob'));
    assert.ok(!lacking.includes('dave'));
    assert.deepEqual(await found({ $or: [{ email: { contains: 'bob' } }, { email: { contains: 'dave' } }] }), ['bob', 'dave']);
    assertBadRequest(await search({ email: { contains: 5 } }), { email: { contains: 5 } }, /contains/);
  });

  it('{contains} is for email only: on another field it is no substring match', async () => {
    for (const filter of [{ login: { contains: 'ali' } }, { language: { contains: 'd' } }]) {
      const res = await search(filter);
      assert.ok(res.status === 200 || res.status === 400, res.text);
      if (res.status === 200) assert.deepEqual(res.body, [], JSON.stringify(filter));
    }
  });
});

describe('rule 5: nested objects match only as a whole', () => {
  it('objectPermissions matches only an exactly equal value', async () => {
    assert.deepEqual(await found({ objectPermissions: { include: [1, 2] } }), ['alice'], 'bob has an extra exclude');
    assert.deepEqual(await found({ objectPermissions: { include: [1, 2], exclude: [3] } }), ['bob']);
    assert.deepEqual(await found({ objectPermissions: { include: [1] } }), [], 'a part of include is not equal');
    assert.deepEqual(await found({ objectPermissions: { include: [1, 2, 4] } }), []);
    assert.deepEqual(await found({ objectPermissions: { include: [1, 2], exclude: [] } }), []);
    assert.deepEqual(await found({ objectPermissions: { include: ['1', '2'] } }), [], 'ids keep their JSON type');
  });

  it('inner paths and inner operators match nothing', async () => {
    const filters: unknown[] = [
      { 'objectPermissions.include': 1 },
      { 'objectPermissions.include': [1, 2] },
      { 'objectPermissions.exclude': 3 },
      { 'objectPermissions.exclude': { $exists: true } },
      { 'objectPermissions.include': { $in: [1] } },
      { $or: [{ 'objectPermissions.include': 1 }, { login: 'nobody' }] },
      { objectPermissions: { include: { $size: 2 } } },
      { objectPermissions: { include: { $in: [1] } } },
    ];
    for (const filter of filters) assert.deepEqual(await found(filter), [], JSON.stringify(filter));
  });

  it('the field as a whole still takes operators', async () => {
    assert.deepEqual(await found({ objectPermissions: { $exists: true } }), ['alice', 'bob']);
    assert.deepEqual(await found({ objectPermissions: { $exists: false } }), ['admin', 'dave', EVIL_LOGIN].sort());
    assert.deepEqual(await found({ objectPermissions: { $in: [{ include: [1, 2], exclude: [3] }] } }), ['bob']);
  });
});

describe('refused filters', () => {
  it('$where is 400, wherever it hides', async () => {
    const filters = [
      { $where: 'true' },
      { $where: 'function () { return true; }' },
      { $or: [{ login: 'alice' }, { $where: 'true' }] },
      { login: { $elemMatch: { $where: 'true' } } },
      { login: { $not: { $where: 'true' } } },
    ];
    for (const f of filters) assertBadRequest(await search(f), f, /\$where/);
  });

  it('an unknown operator is 400 naming it', async () => {
    for (const op of ['$expr', '$function', '$text', '$jsonSchema', '$foo']) {
      const f = { login: { [op]: 1 } };
      assertBadRequest(await search(f), f, new RegExp(`\\${op}`));
      const top = { [op]: {} };
      assertBadRequest(await search(top), top, new RegExp(`\\${op}`));
    }
  });

  it('an invalid regular expression or $options is 400', async () => {
    const filters = [
      { login: { $regex: '(' } },
      { login: { $regex: '[a-' } },
      { login: { $regex: '(a)\\1' } },
      { login: { $regex: '(?=a)' } },
      { login: { $regex: 5 } },
      { login: { $regex: 'a', $options: 'g' } },
      { login: { $not: { $regex: '*' } } },
      { login: { $regex: 'a'.repeat(1001) } },
    ];
    for (const f of filters) assertBadRequest(await search(f), f);
  });

  it('odd filters answer 200 or 400, never 500', async () => {
    const filters: unknown[] = [
      { $and: [1] }, { $and: 'x' }, { $or: [] }, { $nor: [{ login: 'admin' }] }, { $not: { login: 'a' } },
      { $regex: 'a' }, { login: { $options: 'i' } }, { login: { $size: 'a' } }, { login: { $mod: 'x' } },
      { login: { $mod: [] } }, { login: { $mod: [0, 0] } }, { login: { $mod: null } }, { login: { $type: 'bogus' } },
      { login: { $type: 5 } }, { login: { $type: {} } }, { login: { $elemMatch: 5 } }, { login: { $in: 'a' } },
      { login: { $in: [{ $regex: 'a' }] } }, { login: { $all: [{ $elemMatch: {} }] } }, { login: { $gt: {} } },
      { login: null }, { login: [] }, { login: { $exists: 'x' } }, { 'a.$where': 1 }, { '': 1 }, { $: 1 },
      { constructor: 1 }, { toString: 'x' }, { hasOwnProperty: 1 }, { email: { contains: 'a', x: 1 } },
      { email: { contains: null } }, { objectPermissions: { $elemMatch: { include: 1 } } }, { status: { $gt: '1' } },
      { permissions: { $elemMatch: { $regex: 'users' } } }, { login: { $not: 5 } },
    ];
    for (const f of filters) {
      const res = await search(f);
      assert.ok(res.status === 200 || res.status === 400, `${JSON.stringify(f)} answered ${res.status} ${res.text}`);
      if (res.status === 400) assert.equal(res.body.code, 'BadRequest');
    }
  });

  it('a filter too large or too deep is 400', async () => {
    const wide = { login: { $in: Array.from({ length: 3000 }, (_, i) => `u${i}`) } };
    assertBadRequest(await search(wide), 'wide', /parts/);
    let deep: unknown = { login: 'x' };
    for (let i = 0; i < 20; i++) deep = { $and: [deep] };
    const res = await search(deep);
    assert.equal(res.status, 400, res.text);
  });

  it('a body that is not a JSON object is 400', async () => {
    for (const raw of ['[]', '"alice"', '5', 'null', '{"login":']) {
      const res = await call(server, 'POST', '/users/search', { headers: adminAuth, rawBody: raw });
      assert.equal(res.status, 400, `${raw}: ${res.text}`);
      assert.equal(res.body.code, 'InvalidContent');
    }
  });
});

describe('regular expressions run in linear time', () => {
  it('the catastrophic pattern "(a+)+$" answers 200 against a long run of a', { timeout: 60_000 }, async () => {
    // A backtracking engine takes about 2^60 steps on this login; RE2 one pass.
    assert.deepEqual(await found({ login: { $regex: '(a+)+$' } }), []);
    assert.deepEqual(await found({ login: { $regex: '^(a+)+!$' } }), [EVIL_LOGIN]);
    assert.deepEqual(await found({ login: { $regex: '(a|aa)+$' } }), []);
    assert.deepEqual(await found({ $or: [{ login: { $regex: '(a*)*c$' } }, { login: ADMIN.login }] }), ['admin']);
  });
});
