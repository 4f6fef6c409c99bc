// Users: CRUD, the manage-users right, what a user may do to their own account, status and
// activeTo, and the bootstrap admin's rights (api-extensions.md "Users").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RIGHTS } from '../src/modules/users/rights.js';
import { ADMIN, adminAuth, assertError, basic, call, createUser, type Reply, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;

before(async () => {
  // A few wrong passwords are sent on purpose; keep them far from any lock-out.
  server = await startTestServer({ auth: { lockout: { loginMaxFailures: 100, addressMaxFailures: 1000 } } });
});
after(async () => {
  await server?.destroy();
});

const as = (login: string, password: string) => ({ authorization: basic(login, password) });
const asAdmin = (method: string, path: string, body?: unknown) => call(server, method, path, { headers: adminAuth, body });

/** No key that looks like a secret, and none of the given secret values, anywhere in the body. */
function assertNoSecrets(body: unknown, ...secrets: string[]): void {
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        assert.doesNotMatch(k, /pass|hash|token|salt/i, `secret-looking key ${k}`);
        walk(x);
      }
    }
  };
  walk(body);
  const text = JSON.stringify(body);
  assert.doesNotMatch(text, /scrypt\$/);
  for (const s of secrets) assert.ok(!text.includes(s), 'a password appears in the answer');
}

describe('create and read', () => {
  it('POST /users answers 201 with the record, id included, and never the password', async () => {
    const res = await asAdmin('POST', '/users', {
      login: 'carol',
      password: 'carol-secret-pw',
      email: 'carol@example.org',
      language: 'de',
      permissions: ['manage-objects', 'view-section-stat'],
      objectPermissions: { include: [1, 'x7'], exclude: [3] },
    });
    assert.equal(res.status, 201, res.text);
    const u = res.body;
    assert.equal(typeof u.id, 'string');
    assert.ok(u.id.length > 0);
    assert.equal(u.login, 'carol');
    assert.equal(u.email, 'carol@example.org');
    assert.equal(u.language, 'de');
    assert.equal(u.status, 2);
    assert.deepEqual(u.permissions, ['manage-objects', 'view-section-stat']);
    assert.deepEqual(u.objectPermissions, { include: [1, 'x7'], exclude: [3] });
    assert.deepEqual(u.contacts, []);
    assert.deepEqual(u.eventFilter, []);
    assertNoSecrets(u, 'carol-secret-pw');

    const got = await asAdmin('GET', `/users/${u.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, u);
    assertNoSecrets(got.body, 'carol-secret-pw');

    const all = await asAdmin('GET', '/users');
    assertNoSecrets(all.body, 'carol-secret-pw', ADMIN.password);
    const search = await asAdmin('POST', '/users/search', {});
    assertNoSecrets(search.body, 'carol-secret-pw', ADMIN.password);
  });

  it('defaults: email empty, language en, no permissions, no objectPermissions', async () => {
    const u = await createUser(server, { login: 'plain', password: 'pw-plain-1' });
    assert.equal(u.email, '');
    assert.equal(u.language, 'en');
    assert.deepEqual(u.permissions, []);
    assert.equal('objectPermissions' in u, false);
    assert.equal(u.activeTo, null);
  });

  it('a duplicate login is 409 Conflict, on create and on rename', async () => {
    await createUser(server, { login: 'dup', password: 'pw-dup-1' });
    assertError(await asAdmin('POST', '/users', { login: 'dup', password: 'other' }), 409, 'Conflict', /dup/);
    const other = await createUser(server, { login: 'dup-2', password: 'pw-dup-2' });
    assertError(await asAdmin('PATCH', `/users/${other.id}`, { login: 'dup' }), 409, 'Conflict');
  });

  it('GET /users pages with limit and skip, in id order', async () => {
    for (const n of [1, 2, 3]) await createUser(server, { login: `page-${n}`, password: 'pw-page' });
    const all = await asAdmin('GET', '/users');
    assert.equal(all.status, 200);
    const ids = all.body.map((u: { id: string }) => Number(u.id));
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b));
    assert.ok(all.body.length >= 4);

    const page = await asAdmin('GET', '/users?limit=2&skip=1');
    assert.equal(page.status, 200);
    assert.deepEqual(page.body, all.body.slice(1, 3));
    const tail = await asAdmin('GET', `/users?skip=${all.body.length - 1}`);
    assert.deepEqual(tail.body, all.body.slice(-1));
    assert.deepEqual((await asAdmin('GET', '/users?limit=0')).body, []);
    assertError(await asAdmin('GET', '/users?limit=-1'), 400, 'BadRequest', /limit/);
    assertError(await asAdmin('GET', '/users?skip=abc'), 400, 'BadRequest', /skip/);
  });

  it('an unknown id is 404 ResourceNotFound on GET, PATCH and DELETE', async () => {
    assertError(await asAdmin('GET', '/users/99999'), 404, 'ResourceNotFound');
    assertError(await asAdmin('PATCH', '/users/99999', { email: 'a@b.c' }), 404, 'ResourceNotFound');
    assertError(await asAdmin('DELETE', '/users/99999'), 404, 'ResourceNotFound');
    assertError(await asAdmin('GET', '/users/not-a-number'), 404, 'ResourceNotFound');
  });
});

describe('change and delete', () => {
  it('PATCH changes the given fields and keeps the others', async () => {
    const u = await createUser(server, { login: 'patchy', password: 'pw-patchy', email: 'p@example.org', permissions: ['manage-links'] });
    const res = await asAdmin('PATCH', `/users/${u.id}`, {
      email: 'new@example.org',
      permissions: ['manage-history', 'manage-history'],
      objectPermissions: { include: [5, 'x5'] },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.email, 'new@example.org');
    assert.equal(res.body.login, 'patchy');
    assert.equal(res.body.language, 'en');
    assert.deepEqual(res.body.permissions, ['manage-history'], 'duplicates are dropped');
    assert.deepEqual(res.body.objectPermissions, { include: [5, 'x5'] });
    assertNoSecrets(res.body, 'pw-patchy');
    assert.deepEqual((await asAdmin('GET', `/users/${u.id}`)).body, res.body);

    const cleared = await asAdmin('PATCH', `/users/${u.id}`, { objectPermissions: null });
    assert.equal(cleared.status, 200);
    assert.equal('objectPermissions' in cleared.body, false);
  });

  it('activeTo null clears the expiry (it is not read as 0, which would block the user)', async () => {
    const u = await createUser(server, { login: 'renew', password: 'pw-renew', activeTo: null });
    assert.equal(u.activeTo, null);
    assert.equal(u.status, 2);
    assert.equal((await call(server, 'GET', '/users/current', { headers: as('renew', 'pw-renew') })).status, 200);
  });

  // The app validates bodies with Ajv's coerceTypes, which inside the integer-or-string union
  // of ids turns "5" into 5 (app.ts: validate bodies without type coercion).
  it('object ids keep their JSON type, strings that look numeric included', async () => {
    const u = await createUser(server, { login: 'ids', password: 'pw-ids', objectPermissions: { include: ['5', 6], exclude: ['7'] } });
    assert.deepEqual(u.objectPermissions, { include: ['5', 6], exclude: ['7'] });
  });

  it('DELETE answers 204; the user is gone and can no longer sign in', async () => {
    const u = await createUser(server, { login: 'doomed', password: 'pw-doomed' });
    assert.equal((await call(server, 'GET', '/users/current', { headers: as('doomed', 'pw-doomed') })).status, 200);
    const res = await asAdmin('DELETE', `/users/${u.id}`);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assertError(await asAdmin('GET', `/users/${u.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('DELETE', `/users/${u.id}`), 404, 'ResourceNotFound');
    assertError(await call(server, 'GET', '/users/current', { headers: as('doomed', 'pw-doomed') }), 401, 'Unauthorized');
  });

  it('deleting yourself is 409 Conflict', async () => {
    const me = (await asAdmin('GET', '/users/current')).body;
    assertError(await asAdmin('DELETE', `/users/${me.id}`), 409, 'Conflict');
    const manager = await createUser(server, { login: 'manager', password: 'pw-manager', permissions: ['manage-users'] });
    assertError(await call(server, 'DELETE', `/users/${manager.id}`, { headers: as('manager', 'pw-manager') }), 409, 'Conflict');
    assert.equal((await asAdmin('GET', `/users/${manager.id}`)).status, 200);
  });
});

describe('the manage-users right', () => {
  let plain: { id: string };
  let other: { id: string };
  const pw = 'pw-nobody-1';
  const headers = () => as('nobody', pw);

  before(async () => {
    plain = await createUser(server, { login: 'nobody', password: pw, permissions: ['manage-objects'] });
    other = await createUser(server, { login: 'somebody', password: 'pw-somebody' });
  });

  it('without it, the user routes answer 403 Forbidden naming manage-users', async () => {
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', '/users'],
      ['POST', '/users', { login: 'sneaky', password: 'x' }],
      ['GET', `/users/${other.id}`],
      ['PATCH', `/users/${other.id}`, { email: 'hijack@example.org' }],
      ['DELETE', `/users/${other.id}`],
      ['POST', '/users/search', {}],
    ];
    for (const [method, path, body] of attempts) {
      const res = await call(server, method, path, { headers: headers(), body });
      assertError(res, 403, 'Forbidden', /manage-users/);
    }
    const after = await asAdmin('GET', `/users/${other.id}`);
    assert.equal(after.body.email, '');
    assert.equal((await asAdmin('POST', '/users/search', { login: 'sneaky' })).body.length, 0);
  });

  it('a user reads their own record without it', async () => {
    const byId = await call(server, 'GET', `/users/${plain.id}`, { headers: headers() });
    assert.equal(byId.status, 200);
    assert.equal(byId.body.login, 'nobody');
    assertNoSecrets(byId.body, pw);
    const current = await call(server, 'GET', '/users/current', { headers: headers() });
    assert.equal(current.status, 200);
    assert.deepEqual(current.body, byId.body);
  });

  it('a user changes their own email, language and password without it', async () => {
    const res = await call(server, 'PATCH', `/users/${plain.id}`, {
      headers: headers(),
      body: { email: 'me@example.org', language: 'fr' },
    });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.email, 'me@example.org');
    assert.equal(res.body.language, 'fr');

    const newPw = 'pw-nobody-2';
    const changed = await call(server, 'PATCH', `/users/${plain.id}`, { headers: headers(), body: { password: newPw } });
    assert.equal(changed.status, 200, changed.text);
    assertNoSecrets(changed.body, pw, newPw);
    assertError(await call(server, 'GET', '/users/current', { headers: as('nobody', pw) }), 401, 'Unauthorized');
    assert.equal((await call(server, 'GET', '/users/current', { headers: as('nobody', newPw) })).status, 200);
    // Put the old one back for the tests below.
    const back = await call(server, 'PATCH', `/users/${plain.id}`, { headers: as('nobody', newPw), body: { password: pw } });
    assert.equal(back.status, 200);
  });

  it('a user cannot change their own permissions, status, access list, expiry or login', async () => {
    const before = (await asAdmin('GET', `/users/${plain.id}`)).body;
    const changes = [
      { permissions: ['manage-users'] },
      { permissions: [] },
      { status: 3 },
      { objectPermissions: { include: [1] } },
      { activeTo: 4102444800000 },
      { login: 'renamed' },
      { email: 'sneak@example.org', permissions: ['manage-users', 'manage-objects'] },
    ];
    for (const body of changes) {
      const res = await call(server, 'PATCH', `/users/${plain.id}`, { headers: headers(), body });
      assertError(res, 403, 'Forbidden', /manage-users/);
    }
    assert.deepEqual((await asAdmin('GET', `/users/${plain.id}`)).body, before, 'nothing changed');
    assertError(await call(server, 'GET', '/users', { headers: headers() }), 403, 'Forbidden');
  });
});

describe('validation, status and expiry', () => {
  it('an unknown permission name is 400, on create and on change', async () => {
    assertError(await asAdmin('POST', '/users', { login: 'perm-x', password: 'pw', permissions: ['root'] }), 400, 'BadRequest', /permissions/);
    const u = await createUser(server, { login: 'perm-y', password: 'pw-perm-y' });
    assertError(await asAdmin('PATCH', `/users/${u.id}`, { permissions: ['manage-users', 'fly'] }), 400, 'BadRequest', /permissions/);
    assert.deepEqual((await asAdmin('GET', `/users/${u.id}`)).body.permissions, []);
    assert.deepEqual((await asAdmin('POST', '/users/search', { login: 'perm-x' })).body, [], 'the refused user was not created');
  });

  it('status takes only 2 (active) and 3 (blocked)', async () => {
    for (const status of [0, 1, 4, '2x']) {
      assertError(await asAdmin('POST', '/users', { login: `status-${status}`, password: 'pw', status }), 400, 'BadRequest', /status/);
    }
    const blocked = await createUser(server, { login: 'blocked', password: 'pw-blocked', status: 3 });
    assert.equal(blocked.status, 3);
    assertError(await call(server, 'GET', '/users/current', { headers: as('blocked', 'pw-blocked') }), 401, 'Unauthorized');
    const active = await asAdmin('PATCH', `/users/${blocked.id}`, { status: 2 });
    assert.equal(active.body.status, 2);
    assert.equal((await call(server, 'GET', '/users/current', { headers: as('blocked', 'pw-blocked') })).status, 200);
    assertError(await asAdmin('PATCH', `/users/${blocked.id}`, { status: 5 }), 400, 'BadRequest', /status/);
  });

  it('the admin cannot block their own account', async () => {
    const me = (await asAdmin('GET', '/users/current')).body;
    assertError(await asAdmin('PATCH', `/users/${me.id}`, { status: 3 }), 409, 'Conflict');
    assert.equal((await asAdmin('GET', '/users/current')).status, 200);
  });

  it('a user past activeTo shows status 3 and cannot sign in', async () => {
    const expired = await createUser(server, { login: 'expired', password: 'pw-expired', activeTo: Date.now() - 60_000 });
    assert.equal(expired.status, 3);
    assert.equal((await asAdmin('GET', `/users/${expired.id}`)).body.status, 3);
    assertError(await call(server, 'GET', '/users/current', { headers: as('expired', 'pw-expired') }), 401, 'Unauthorized');

    const future = await createUser(server, { login: 'future', password: 'pw-future', activeTo: Date.now() + 86_400_000 });
    assert.equal(future.status, 2);
    const lapsed = await asAdmin('PATCH', `/users/${future.id}`, { activeTo: 1 });
    assert.equal(lapsed.body.status, 3);
    const renewed = await asAdmin('PATCH', `/users/${future.id}`, { activeTo: null });
    assert.equal(renewed.body.status, 2);
    assert.equal(renewed.body.activeTo, null);
  });
});

describe('the bootstrap admin', () => {
  it('has every right of rights.ts', async () => {
    const me = await asAdmin('GET', '/users/current');
    assert.equal(me.status, 200);
    assert.equal(me.body.login, ADMIN.login);
    assert.equal(me.body.status, 2);
    assert.deepEqual([...me.body.permissions].sort(), [...RIGHTS].sort());
    assertNoSecrets(me.body, ADMIN.password);
    const viaList = (await asAdmin('GET', '/users')).body.find((u: { login: string }) => u.login === ADMIN.login);
    assert.deepEqual(viaList, me.body);
  });
});
