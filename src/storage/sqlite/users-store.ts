import type Database from 'better-sqlite3';
import type { WriteGate } from './write-gate.js';
import { DuplicateKeyError, type NewUser, type Page, type UserChanges, type UserRecord, type UsersStore } from '../types.js';
import { type UserRow, toUserRecord, USER_COLUMNS } from '../rows/user-row.js';

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
      return q.list.all(page.limit, page.skip).map(toUserRecord);
    },
    async all() {
      return q.all.all().map(toUserRecord);
    },
    async count() {
      return q.count.get()!.n;
    },
    async get(id) {
      const row = q.get.get(id);
      return row && toUserRecord(row);
    },
    async getByLogin(login) {
      const row = q.byLogin.get(login);
      return row && toUserRecord(row);
    },
    async getByTokenHash(tokenHash) {
      const row = q.byToken.get(tokenHash);
      return row && toUserRecord(row);
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
        return toUserRecord(row);
      } catch (err) {
        rethrowUnique(err);
      }
    }),
    update: (id, changes, now, bumpAuth) => gate.run(() => {
      const sets: string[] = ['updated = @now'];
      const params: Record<string, unknown> = { id, now };
      for (const [field, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        const [column, encode] = USER_COLUMNS[field as keyof UserChanges];
        sets.push(`${column} = @${column}`);
        params[column] = encode(value as never);
      }
      if (bumpAuth) sets.push('auth_version = auth_version + 1');
      try {
        // The column list comes from USER_COLUMNS (never from input), so this text is safe.
        const row = db.prepare(`UPDATE users SET ${sets.join(', ')} WHERE id = @id RETURNING *`).get(params) as UserRow | undefined;
        return row && toUserRecord(row);
      } catch (err) {
        rethrowUnique(err);
      }
    }),
    delete: (id) => gate.run(() => q.del.run(id).changes > 0),
  };
}
