import type Database from 'better-sqlite3';
import type { WriteGate } from './write-gate.js';
import { DuplicateKeyError, type NewUser, type Page, type UserChanges, type UserRecord, type UsersStore } from '../types.js';

interface UserRow {
  id: number;
  login: string;
  email: string;
  status: number;
  language: string;
  contacts: string;
  event_filter: string;
  permissions: string;
  object_permissions: string | null;
  active_to: number | null;
  is_admin: number;
  password_hash: string;
  token_hash: string | null;
  auth_version: number;
  created: number;
  updated: number;
}

const fromRow = (r: UserRow): UserRecord => ({
  id: String(r.id),
  login: r.login,
  email: r.email,
  status: r.status,
  language: r.language,
  contacts: JSON.parse(r.contacts),
  eventFilter: JSON.parse(r.event_filter),
  permissions: JSON.parse(r.permissions),
  objectPermissions: r.object_permissions === null ? null : JSON.parse(r.object_permissions),
  activeTo: r.active_to,
  isAdmin: r.is_admin === 1,
  passwordHash: r.password_hash,
  tokenHash: r.token_hash,
  authVersion: r.auth_version,
  created: r.created,
  updated: r.updated,
});

/** Record field → column, with how the value is stored. */
const COLUMNS: Record<keyof UserChanges, [string, (v: never) => unknown]> = {
  login: ['login', (v: string) => v],
  email: ['email', (v: string) => v],
  status: ['status', (v: number) => v],
  language: ['language', (v: string) => v],
  contacts: ['contacts', (v: unknown[]) => JSON.stringify(v)],
  eventFilter: ['event_filter', (v: unknown[]) => JSON.stringify(v)],
  permissions: ['permissions', (v: string[]) => JSON.stringify(v)],
  objectPermissions: ['object_permissions', (v: object | null) => (v === null ? null : JSON.stringify(v))],
  activeTo: ['active_to', (v: number | null) => v],
  isAdmin: ['is_admin', (v: boolean) => (v ? 1 : 0)],
  passwordHash: ['password_hash', (v: string) => v],
  tokenHash: ['token_hash', (v: string | null) => v],
};

function rethrowUnique(err: unknown): never {
  const e = err as { code?: string; message?: string };
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE') {
    throw new DuplicateKeyError(e.message?.includes('token_hash') ? 'token' : 'login');
  }
  throw err;
}

export function createSqliteUsersStore(db: Database.Database, gate: WriteGate): UsersStore {
  const q = {
    list: db.prepare<[number, number], UserRow>('SELECT * FROM users ORDER BY id LIMIT ? OFFSET ?'),
    all: db.prepare<[], UserRow>('SELECT * FROM users ORDER BY id'),
    count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM users'),
    get: db.prepare<[string], UserRow>('SELECT * FROM users WHERE id = ?'),
    byLogin: db.prepare<[string], UserRow>('SELECT * FROM users WHERE login = ?'),
    byToken: db.prepare<[string], UserRow>('SELECT * FROM users WHERE token_hash = ?'),
    del: db.prepare<[string]>('DELETE FROM users WHERE id = ?'),
    insert: db.prepare(`INSERT INTO users (login, email, status, language, contacts, event_filter, permissions,
      object_permissions, active_to, is_admin, password_hash, created, updated)
      VALUES (@login, @email, @status, @language, @contacts, @event_filter, @permissions,
      @object_permissions, @active_to, @is_admin, @password_hash, @now, @now) RETURNING *`),
  };
  return {
    async list(page: Page) {
      return q.list.all(page.limit, page.skip).map(fromRow);
    },
    async all() {
      return q.all.all().map(fromRow);
    },
    async count() {
      return q.count.get()!.n;
    },
    async get(id) {
      const row = q.get.get(id);
      return row && fromRow(row);
    },
    async getByLogin(login) {
      const row = q.byLogin.get(login);
      return row && fromRow(row);
    },
    async getByTokenHash(tokenHash) {
      const row = q.byToken.get(tokenHash);
      return row && fromRow(row);
    },
    create: (user: NewUser, now: number) => gate.run(() => {
      try {
        const row = q.insert.get({
          login: user.login,
          email: user.email,
          status: user.status,
          language: user.language,
          contacts: JSON.stringify(user.contacts),
          event_filter: JSON.stringify(user.eventFilter),
          permissions: JSON.stringify(user.permissions),
          object_permissions: user.objectPermissions === null ? null : JSON.stringify(user.objectPermissions),
          active_to: user.activeTo,
          is_admin: user.isAdmin ? 1 : 0,
          password_hash: user.passwordHash,
          now,
        }) as UserRow;
        return fromRow(row);
      } catch (err) {
        rethrowUnique(err);
      }
    }),
    update: (id, changes, now, bumpAuth) => gate.run(() => {
      const sets: string[] = ['updated = @now'];
      const params: Record<string, unknown> = { id, now };
      for (const [field, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        const [column, encode] = COLUMNS[field as keyof UserChanges];
        sets.push(`${column} = @${column}`);
        params[column] = encode(value as never);
      }
      if (bumpAuth) sets.push('auth_version = auth_version + 1');
      try {
        // The column list comes from COLUMNS (never from input), so this text is safe.
        const row = db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = @id RETURNING *`).get(params) as UserRow | undefined;
        return row && fromRow(row);
      } catch (err) {
        rethrowUnique(err);
      }
    }),
    delete: (id) => gate.run(() => q.del.run(id).changes > 0),
  };
}
