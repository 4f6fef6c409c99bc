// POST /objects/search: MongoDB-style criteria over object records (fields, properties, tags,
// parent_id), the options limit/skip/sort/fields, and the refusal of code-running operators,
// unknown operators and bad regular expressions (api-extensions.md "Objects").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAuth, assertError, call, type Reply, sleep, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;

const asAdmin = (method: string, path: string, body?: unknown) => call(server, method, path, { headers: adminAuth, body });
const search = (body: unknown) => asAdmin('POST', '/objects/search', body);

async function create(body: Record<string, unknown>): Promise<any> {
  const res = await asAdmin('POST', '/objects', body);
  assert.equal(res.status, 201, res.text);
  return res.body;
}

/** Ids of a search answer, in the order given. */
async function ids(body: unknown): Promise<string[]> {
  const res = await search(body);
  assert.equal(res.status, 200, res.text);
  assert.ok(Array.isArray(res.body));
  return res.body.map((o: { id: string }) => o.id);
}

const sorted = (list: string[]) => [...list].sort((a, b) => Number(a) - Number(b));

// The tree searched below: a group with three hosts and one object elsewhere.
let dc: any;
let web1: any;
let web2: any;
let db1: any;
let mail: any;
let tag1: string;
let tag2: string;

before(async () => {
  server = await startTestServer();
  tag1 = (await asAdmin('POST', '/tags', { name: 'search-t1' })).body.id;
  tag2 = (await asAdmin('POST', '/tags', { name: 'search-t2' })).body.id;
  dc = await create({ name: 'srch-dc', class_id: '1' });
  // A few milliseconds between creations so `created` orders them strictly.
  await sleep(5);
  web1 = await create({ name: 'web-01', parent_id: [dc.id], class_id: '2', tags: [tag1], properties: [{ name: 'ip', value: '10.0.0.1' }] });
  await sleep(5);
  web2 = await create({ name: 'Web-02', parent_id: dc.id, class_id: '2', tags: [tag1, tag2], properties: [{ name: 'ip', value: '10.0.0.2' }] });
  await sleep(5);
  db1 = await create({
    name: 'db-01', parent_id: [dc.id], class_id: '2', tags: [tag2],
    properties: [{ name: 'ip', value: '10.0.0.3' }, { name: 'role', value: 'database' }],
  });
  await sleep(5);
  mail = await create({ name: 'mail-web', class_id: '2', properties: [{ name: 'ip', value: '10.0.0.1' }] });
});
after(async () => {
  await server?.destroy();
});

describe('criteria', () => {
  it('an empty body, an empty object and an empty search all answer every object, root included', async () => {
    const all = await asAdmin('GET', '/objects');
    assert.equal(all.status, 200);
    const everyId = all.body.map((o: { id: string }) => o.id);
    assert.ok(everyId.includes('1'));
    assert.ok(everyId.includes(mail.id));

    const noBody = await call(server, 'POST', '/objects/search', { headers: adminAuth });
    assert.equal(noBody.status, 200, noBody.text);
    assert.deepEqual(sorted(noBody.body.map((o: { id: string }) => o.id)), sorted(everyId));
    assert.deepEqual(sorted(await ids({})), sorted(everyId));
    assert.deepEqual(sorted(await ids({ search: {} })), sorted(everyId));
  });

  it('criteria sent without the {search} wrapper are the search, not ignored', async () => {
    assert.deepEqual(await ids({ name: 'db-01' }), [db1.id]);
    assert.deepEqual(await ids({ name: 'db-01', options: { fields: 'name' } }), [db1.id]);
    const refused = await search({ name: { $where: 'true' } });
    assertError(refused, 400, 'BadRequest');
  });

  it('answers full object records (issue 16: properties included), as GET /objects/:id', async () => {
    const res = await search({ search: { id: web1.id } });
    assert.equal(res.status, 200);
    assert.equal(res.body.length, 1);
    const rec = res.body[0];
    assert.equal(rec.id, web1.id);
    assert.equal(rec.entityType, 1);
    assert.equal(rec.name, 'web-01');
    assert.deepEqual(rec.parent_id, [dc.id]);
    assert.equal(rec.path, 'srch-dc/web-01');
    assert.deepEqual(rec.tags, [tag1]);
    assert.ok(Array.isArray(rec.properties), 'full record: properties without asking (issue 16; was left out)');
    assert.deepEqual(rec, (await asAdmin('GET', `/objects/${web1.id}`)).body);
  });

  it('$in and $nin', async () => {
    assert.deepEqual(sorted(await ids({ search: { name: { $in: ['web-01', 'db-01', 'nothing-like-it'] } } })), sorted([web1.id, db1.id]));
    assert.deepEqual(
      sorted(await ids({ search: { parent_id: dc.id, name: { $nin: ['web-01'] } } })),
      sorted([web2.id, db1.id]),
    );
    assert.deepEqual(await ids({ search: { name: { $in: [] } } }), []);
  });

  it('$gt, $gte, $lt and $lte on created', async () => {
    const t1 = web1.created as number;
    const t2 = web2.created as number;
    const t3 = db1.created as number;
    assert.ok(t1 < t2 && t2 < t3, `created strictly increasing: ${t1} ${t2} ${t3}`);
    const inDc = (extra: Record<string, unknown>) => ids({ search: { parent_id: dc.id, created: extra } });
    assert.deepEqual(sorted(await inDc({ $gt: t1 })), sorted([web2.id, db1.id]));
    assert.deepEqual(sorted(await inDc({ $gte: t1 })), sorted([web1.id, web2.id, db1.id]));
    assert.deepEqual(sorted(await inDc({ $lt: t3 })), sorted([web1.id, web2.id]));
    assert.deepEqual(sorted(await inDc({ $lte: t3 })), sorted([web1.id, web2.id, db1.id]));
    assert.deepEqual(await inDc({ $gt: t1, $lt: t3 }), [web2.id]);
    assert.deepEqual(await inDc({ $gt: t3 }), []);
  });

  it('$regex, case-sensitive by default and not with $options "i"', async () => {
    assert.deepEqual(await ids({ search: { name: { $regex: '^web' } } }), [web1.id]);
    assert.deepEqual(sorted(await ids({ search: { name: { $regex: '^web', $options: 'i' } } })), sorted([web1.id, web2.id]));
    assert.deepEqual(sorted(await ids({ search: { name: { $regex: 'web' } } })), sorted([web1.id, mail.id]));
    assert.deepEqual(await ids({ search: { name: { $regex: '^WEB-0[2-9]$', $options: 'i' } } }), [web2.id]);
  });

  it('properties with $elemMatch {name, value} match one property holding both', async () => {
    assert.deepEqual(sorted(await ids({ search: { properties: { $elemMatch: { name: 'ip', value: '10.0.0.1' } } } })), sorted([web1.id, mail.id]));
    assert.deepEqual(await ids({ search: { properties: { $elemMatch: { name: 'role', value: 'database' } } } }), [db1.id]);
    // Both exist on db-01, but not in one property.
    assert.deepEqual(await ids({ search: { properties: { $elemMatch: { name: 'role', value: '10.0.0.3' } } } }), []);
    assert.deepEqual(
      sorted(await ids({ search: { properties: { $elemMatch: { name: 'ip', value: { $regex: '^10\\.0\\.0\\.[23]$' } } } } })),
      sorted([web2.id, db1.id]),
    );
  });

  it('tags with $in', async () => {
    assert.deepEqual(sorted(await ids({ search: { tags: { $in: [tag2] } } })), sorted([web2.id, db1.id]));
    assert.deepEqual(sorted(await ids({ search: { tags: { $in: [tag1] } } })), sorted([web1.id, web2.id]));
    assert.deepEqual(sorted(await ids({ search: { tags: { $in: [tag1, tag2] } } })), sorted([web1.id, web2.id, db1.id]));
  });

  it('parent_id with a plain value matches the children of that object', async () => {
    assert.deepEqual(await ids({ search: { parent_id: dc.id } }), [web1.id, web2.id, db1.id]);
    const underRoot = await ids({ search: { parent_id: '1' } });
    assert.ok(underRoot.includes(dc.id) && underRoot.includes(mail.id));
    assert.ok(!underRoot.includes(web1.id));
    assert.deepEqual(await ids({ search: { parent_id: web1.id } }), []);
  });

  it('path, the computed field, can be searched too', async () => {
    assert.deepEqual(await ids({ search: { path: 'srch-dc/db-01' } }), [db1.id]);
    assert.deepEqual(sorted(await ids({ search: { path: { $regex: '^srch-dc/' } } })), sorted([web1.id, web2.id, db1.id]));
  });

  it('$and and $or', async () => {
    assert.deepEqual(
      await ids({ search: { $and: [{ tags: { $in: [tag1] } }, { tags: { $in: [tag2] } }] } }),
      [web2.id],
    );
    assert.deepEqual(
      sorted(await ids({ search: { $or: [{ name: 'db-01' }, { name: 'mail-web' }] } })),
      sorted([db1.id, mail.id]),
    );
    assert.deepEqual(
      sorted(await ids({
        search: {
          $and: [
            { class_id: '2' },
            { $or: [{ properties: { $elemMatch: { name: 'ip', value: '10.0.0.1' } } }, { name: { $regex: '^db-' } }] },
          ],
        },
      })),
      sorted([web1.id, db1.id, mail.id]),
    );
  });
});

describe('options', () => {
  const inDc = () => ({ parent_id: dc.id });

  it('sort by name, ascending and descending (text compares case-insensitively)', async () => {
    assert.deepEqual(await ids({ search: inDc(), options: { sort: { name: 1 } } }), [db1.id, web1.id, web2.id]);
    assert.deepEqual(await ids({ search: inDc(), options: { sort: { name: -1 } } }), [web2.id, web1.id, db1.id]);
    assert.deepEqual(await ids({ search: inDc(), options: { sort: { created: -1 } } }), [db1.id, web2.id, web1.id]);
  });

  it('limit and skip page the answer (after sorting)', async () => {
    assert.deepEqual(await ids({ search: inDc(), options: { sort: { name: 1 }, limit: 2 } }), [db1.id, web1.id]);
    assert.deepEqual(await ids({ search: inDc(), options: { sort: { name: 1 }, skip: 1, limit: 1 } }), [web1.id]);
    assert.deepEqual(await ids({ search: inDc(), options: { sort: { name: 1 }, skip: 2 } }), [web2.id]);
    assert.deepEqual(await ids({ search: inDc(), options: { skip: 3 } }), []);
    assert.deepEqual(await ids({ search: inDc(), options: { limit: 0 } }), []);
    // Without a sort, pages follow id order.
    assert.deepEqual(await ids({ search: inDc(), options: { skip: 1, limit: 1 } }), [web2.id]);
  });

  it('fields chooses the keys of each record (id always in); properties on request', async () => {
    const res = await search({ search: { id: web1.id }, options: { fields: ['name'] } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, [{ id: web1.id, name: 'web-01' }]);

    const asText = await search({ search: { id: web1.id }, options: { fields: 'name,tags' } });
    assert.deepEqual(asText.body, [{ id: web1.id, name: 'web-01', tags: [tag1] }]);

    const props = await search({ search: { id: db1.id }, options: { fields: ['properties'] } });
    assert.equal(props.status, 200);
    assert.deepEqual(Object.keys(props.body[0]).sort(), ['id', 'properties']);
    assert.deepEqual(
      props.body[0].properties.map((p: { name: string; value: string }) => [p.name, p.value]).sort(),
      [['ip', '10.0.0.3'], ['role', 'database']],
    );

    // Issue 16 point 4: unknown field names are ignored (was 400).
    assert.deepEqual((await search({ search: { id: web1.id }, options: { fields: ['name', 'nonsense'] } })).body, [{ id: web1.id, name: 'web-01' }]);
  });
});

describe('refusals', () => {
  const refused: Array<[string, unknown]> = [
    ['$where', { $where: 'return true' }],
    ['$where nested in $or', { $or: [{ name: 'web-01' }, { $where: 'this.name.length > 0' }] }],
    ['$function', { $function: { body: 'function() { return true }', args: [], lang: 'js' } }],
    ['$expr', { $expr: { $gt: ['$updated', '$created'] } }],
    ['$accumulator', { name: { $accumulator: { init: 'function() {}', accumulate: 'function() {}', lang: 'js' } } }],
    ['an unknown operator', { name: { $foo: 1 } }],
    ['an unknown operator inside $elemMatch', { properties: { $elemMatch: { name: { $bar: 'ip' } } } }],
    ['an unbalanced regex', { name: { $regex: '(' } }],
    ['a backreference', { name: { $regex: '(a)\\1' } }],
    ['a bad regex inside $elemMatch', { properties: { $elemMatch: { value: { $regex: '[' } } } }],
    ['$regex of a number', { name: { $regex: 5 } }],
    ['$regex of an object', { name: { $regex: { source: 'web' } } }],
    ['$in of a string', { name: { $in: 'web-01' } }],
    ['$nin of a number', { tags: { $nin: 1 } }],
  ];
  for (const [what, criteria] of refused) {
    it(`${what} → 400 BadRequest`, async () => {
      assertError(await search({ search: criteria }), 400, 'BadRequest');
    });
  }

  it('a search that is not an object → 400 (InvalidContent or BadRequest)', async () => {
    for (const bad of ['name', 5, ['web-01'], true]) {
      const res = await search({ search: bad });
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message']);
      assert.ok(['InvalidContent', 'BadRequest'].includes(res.body.code), res.text);
    }
    const arrayBody = await search([]);
    assert.equal(arrayBody.status, 400);
    assert.ok(['InvalidContent', 'BadRequest'].includes(arrayBody.body.code), arrayBody.text);
  });

  it('a refused search changes nothing and the server keeps answering', async () => {
    assertError(await search({ search: { $where: 'while(true){}' } }), 400, 'BadRequest');
    assert.deepEqual(await ids({ search: { name: 'web-01' } }), [web1.id]);
  });
});

describe('pathological regular expressions', () => {
  // The spec gives no limit on names; the server takes at most 1024 characters (CreateObjectBody),
  // so the 5000-character subject is a property value and the name is as long as allowed.
  let longOne: any;
  before(async () => {
    const long = 'a'.repeat(5000) + 'b';
    longOne = await create({ name: 'a'.repeat(1023) + 'b', properties: [{ name: 'blob', value: long }] });
  });

  it('(a+)+$ against long subjects answers (RE2, no catastrophic backtracking)', async () => {
    const onName = await search({ search: { name: { $regex: '(a+)+$' } } });
    assert.equal(onName.status, 200, onName.text);
    assert.equal(onName.body.some((o: { id: string }) => o.id === longOne.id), false, 'the name ends in b');

    const onValue = await search({ search: { properties: { $elemMatch: { name: 'blob', value: { $regex: '^(a+)+$' } } } } });
    assert.equal(onValue.status, 200, onValue.text);
    assert.deepEqual(onValue.body, []);

    const hit = await search({ search: { properties: { $elemMatch: { name: 'blob', value: { $regex: '^(a+)+b$' } } } } });
    assert.equal(hit.status, 200);
    assert.deepEqual(hit.body.map((o: { id: string }) => o.id), [longOne.id]);
  });
});
