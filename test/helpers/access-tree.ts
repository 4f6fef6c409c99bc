// The tree of objects and links the objectPermissions tests work on (test/object-access.test.ts,
// test/object-access-changes.test.ts), and the restricted user `ra` who sees part of it.
//
// The tree:
//   root
//   ├─ A                  (included)
//   │  ├─ A1
//   │  │  ├─ A1a
//   │  │  └─ M            (also under B)
//   │  ├─ A2             (excluded)
//   │  │  └─ A2a
//   │  └─ A3
//   └─ B                  (outside)
//      ├─ B1
//      └─ M
// Links: L1 A1–A3 (visible), L5 A1–A2 (hidden end), L2 A1a–B1 (hidden end), L4 B–B1 (hidden).
import assert from 'node:assert/strict';
import { adminAuth, basic, call, createUser, type TestServer } from './server.js';

export const PW = 'pw-access-1';
export const as = (login: string, password: string) => ({ authorization: basic(login, password) });
export const ra = () => as('ra', PW);

export const idsOf = (body: Array<{ id: string }>) => body.map((e) => e.id);
export const sortIds = (list: string[]) => [...list].sort((a, b) => Number(a) - Number(b));

/** Helpers bound to a server that a test's `before` starts later (hence the getter). */
export function accessTree(server: () => TestServer) {
  const asAdmin = (method: string, path: string, body?: unknown) => call(server(), method, path, { headers: adminAuth, body });

  async function obj(name: string, parents: string[]): Promise<string> {
    const res = await asAdmin('POST', '/objects', { name, parent_id: parents });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }
  async function link(source: string, target: string, name: string): Promise<string> {
    const res = await asAdmin('POST', '/links', { source, target, name });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }

  /** The ids of the tree's objects and links by name (A, A1, …, L1, …), filled in by build(). */
  const t: Record<string, string> = {};

  /** Creates the tree and the restricted user `ra`; answers the user. */
  async function build(): Promise<any> {
    t.A = await obj('acc-A', ['1']);
    t.B = await obj('acc-B', ['1']);
    t.A1 = await obj('acc-A1', [t.A]);
    t.A2 = await obj('acc-A2', [t.A]);
    t.A3 = await obj('acc-A3', [t.A]);
    t.A1a = await obj('acc-A1a', [t.A1]);
    t.A2a = await obj('acc-A2a', [t.A2]);
    t.B1 = await obj('acc-B1', [t.B]);
    t.M = await obj('acc-M', [t.B, t.A1]);
    t.L1 = await link(t.A1, t.A3, 'l-A1-A3');
    t.L5 = await link(t.A1, t.A2, 'l-A1-A2');
    t.L2 = await link(t.A1a, t.B1, 'l-A1a-B1');
    t.L4 = await link(t.B, t.B1, 'l-B-B1');
    return createUser(server(), {
      login: 'ra',
      password: PW,
      permissions: ['manage-objects', 'manage-links', 'manage-properties', 'entityPermissions'],
      objectPermissions: { include: [t.A], exclude: [t.A2] },
    });
  }

  const visibleObjects = () => ['1', t.A!, t.A1!, t.A3!, t.A1a!, t.M!];
  const hiddenObjects = () => [t.A2!, t.A2a!, t.B!, t.B1!];
  const hiddenLinks = () => [t.L5!, t.L2!, t.L4!];

  return { asAdmin, obj, link, t, build, visibleObjects, hiddenObjects, hiddenLinks };
}
