// Users in PostgreSQL: the SQLite store's rows and answers, with the unique keys (login, API
// token hash) enforced by named constraints so a refused write says which key it hit.
import { DuplicateKeyError, type NewUser, type Page, type UserChanges, type UserRecord, type UsersStore } from '../types.js';
import { isUniqueViolation, type PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { type UserRow, toUserRecord, USER_COLUMNS } from '../rows/user-row.js';

/** Constraint names from migration 0001. */
function rethrowUnique(err: unknown): never {
  if (isUniqueViolation(err, 'users_token_hash_key')) throw new DuplicateKeyError('token');
  if (isUniqueViolation(err, 'users_login_key')) throw new DuplicateKeyError('login');
  throw err;
}

export function createPgUsersStore(db: PgDb): UsersStore {
  const one = async (sql: string, values: unknown[]) => {
    const row = await db.one<UserRow>(sql, values);
    return row && toUserRecord(row);
  };
  return {
    async list(page: Page) {
      return (await db.rows<UserRow>('SELECT * FROM users ORDER BY id LIMIT $1 OFFSET $2', [page.limit, page.skip])).map(toUserRecord);
    },
    async all() {
      return (await db.rows<UserRow>('SELECT * FROM users ORDER BY id')).map(toUserRecord);
    },
    async count() {
      return (await db.one<{ n: number }>('SELECT count(*) AS n FROM users'))!.n;
    },
    async get(id) {
      const key = rowId(id);
      return key === undefined ? undefined : one('SELECT * FROM users WHERE id = $1', [key]);
    },
    // A login typed with a NUL character (a Basic header can carry one) names nobody, as on
    // SQLite; PostgreSQL would refuse the parameter, and the sign-in would fail with 400
    // instead of 401 and its security event.
    getByLogin: async (login) => (login.includes('\u0000') ? undefined : one('SELECT * FROM users WHERE login = $1', [login])),
    getByTokenHash: (tokenHash) => one('SELECT * FROM users WHERE token_hash = $1', [tokenHash]),
    async create(user: NewUser, now: number) {
      try {
        const row = await db.one<UserRow>(`INSERT INTO users (login, email, status, language, contacts, event_filter,
          permissions, object_permissions, active_to, is_admin, password_hash, created, updated)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12) RETURNING *`, [
          user.login,
          user.email,
          user.status,
          user.language,
          JSON.stringify(user.contacts),
          JSON.stringify(user.eventFilter),
          JSON.stringify(user.permissions),
          user.objectPermissions === null ? null : JSON.stringify(user.objectPermissions),
          user.activeTo,
          user.isAdmin ? 1 : 0,
          user.passwordHash,
          now,
        ]);
        return toUserRecord(row!);
      } catch (err) {
        rethrowUnique(err);
      }
    },
    async update(id, changes, now, bumpAuth) {
      const key = rowId(id);
      if (key === undefined) return undefined;
      const values: unknown[] = [key, now];
      const sets: string[] = ['updated = $2'];
      for (const [field, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        const [column, encode] = USER_COLUMNS[field as keyof UserChanges];
        values.push(encode(value as never));
        sets.push(`${column} = $${values.length}`);
      }
      if (bumpAuth) sets.push('auth_version = auth_version + 1');
      try {
        // The column list comes from USER_COLUMNS (never from input), so this text is safe; each
        // combination of changed fields is one prepared statement.
        return await one(`UPDATE users SET ${sets.join(', ')} WHERE id = $1 RETURNING *`, values);
      } catch (err) {
        rethrowUnique(err);
      }
    },
    async delete(id) {
      const key = rowId(id);
      return key !== undefined && (await db.query('DELETE FROM users WHERE id = $1', [key])).rowCount! > 0;
    },
  };
}
