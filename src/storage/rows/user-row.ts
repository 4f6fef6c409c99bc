// A users row as both dialects store it (same columns; JSON in text, flags as 0/1), and the
// mapping between that row and the UsersStore record, kept once for SQLite and PostgreSQL.
import type { UserChanges, UserRecord } from '../types.js';

export interface UserRow {
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

export const toUserRecord = (r: UserRow): UserRecord => ({
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
export const USER_COLUMNS: Record<keyof UserChanges, [string, (v: never) => unknown]> = {
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
