// Creating entities as the admin, for tests that need a tree to work on.
import assert from 'node:assert/strict';
import { adminAuth, basic, call, type TestServer } from './server.js';

/** Helpers bound to a server that a test's `before` starts later (hence the getter). */
export function adminClient(server: () => TestServer) {
  const asAdmin = (method: string, path: string, body?: unknown) => call(server(), method, path, { headers: adminAuth, body });

  async function created(path: string, body: Record<string, unknown>): Promise<any> {
    const res = await asAdmin('POST', path, body);
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  return {
    asAdmin,
    /** POST that must answer 201; the created record. */
    created,
    mkObject: (body: Record<string, unknown>) => created('/objects', body),
    mkLink: (source: string, target: string, extra: Record<string, unknown> = {}) => created('/links', { source, target, ...extra }),
    mkTag: (name: string) => created('/tags', { name }),
  };
}

/** Basic-auth headers for a test user. */
export const as = (login: string, password: string) => ({ authorization: basic(login, password) });

/** The ids of a list of records, in order. */
export const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);
