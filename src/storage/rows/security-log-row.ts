// A security_log row as both dialects read it, the row → StoredSecurityEvent mapping, and the
// record fields kept in columns of their own (filters on them use the column and its index),
// kept once for SQLite and PostgreSQL.
import type { SecurityEvent, StoredSecurityEvent } from '../types.js';

export interface SecurityLogRow {
  id: number;
  ts: number;
  user_id: number | null;
  record: string;
  /**
   * PostgreSQL only: the record's exact JSON text when jsonb could not keep it (a \u0000 in a
   * string, see postgres/nul-safe.ts), read instead of `record`. SQLite has no such column.
   */
  record_exact?: string | null;
}

export const toSecurityEvent = (r: SecurityLogRow): StoredSecurityEvent => ({
  ...(JSON.parse(r.record_exact ?? r.record) as Omit<SecurityEvent, 'timestamp' | 'userId'>),
  id: String(r.id),
  timestamp: r.ts,
  userId: r.user_id === null ? null : String(r.user_id),
});

/** Record field (dotted path) → the column that holds it beside the record. */
export const SECURITY_LOG_FIELD_COLUMNS = {
  level: 'level', eventClassId: 'event_class', 'message.login': 'login', 'message.remoteAddress': 'remote_address',
};
