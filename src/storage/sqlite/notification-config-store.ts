import type Database from 'better-sqlite3';
import type { NewNotificationConfig, NotificationConfigKind, NotificationConfigRow, NotificationConfigStore } from '../notification-types.js';
import type { WriteGate } from './write-gate.js';
import { type NotificationConfigDbRow, NOTIFICATION_CONFIG_COLUMNS as COLS, NOTIFICATION_TABLES, toNotificationConfig } from '../rows/notification-config-row.js';

export function createSqliteNotificationConfigStore(db: Database.Database, gate: WriteGate): NotificationConfigStore {
  const statements = (table: string) => ({
    list: db.prepare(`SELECT ${COLS} FROM ${table} ORDER BY id`),
    get: db.prepare(`SELECT ${COLS} FROM ${table} WHERE id = ?`),
    insert: db.prepare(`INSERT INTO ${table} (name, type, data, created, updated) VALUES (?, ?, ?, ?, ?) RETURNING ${COLS}`),
    update: db.prepare(`UPDATE ${table} SET name = ?, type = ?, data = ?, updated = ? WHERE id = ? RETURNING ${COLS}`),
    remove: db.prepare(`DELETE FROM ${table} WHERE id = ?`),
  });
  /** An id that is no positive integer names no row. */
  const key = (id: string) => (/^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : undefined);
  const of = { channel: statements(NOTIFICATION_TABLES.channel), policy: statements(NOTIFICATION_TABLES.policy) };

  return {
    list: async (kind: NotificationConfigKind) => (of[kind].list.all() as NotificationConfigDbRow[]).map(toNotificationConfig),
    get: async (kind: NotificationConfigKind, id: string) => {
      const k = key(id);
      const r = k === undefined ? undefined : (of[kind].get.get(k) as NotificationConfigDbRow | undefined);
      return r && toNotificationConfig(r);
    },
    create: (kind: NotificationConfigKind, row: NewNotificationConfig) =>
      gate.run(() => toNotificationConfig(of[kind].insert.get(row.name, row.type, JSON.stringify(row.data), row.created, row.updated) as NotificationConfigDbRow)),
    update: (kind: NotificationConfigKind, row: NotificationConfigRow) =>
      gate.run(() => {
        const k = key(row.id);
        const r = k === undefined ? undefined : (of[kind].update.get(row.name, row.type, JSON.stringify(row.data), row.updated, k) as NotificationConfigDbRow | undefined);
        return r && toNotificationConfig(r);
      }),
    delete: (kind: NotificationConfigKind, id: string) => gate.run(() => {
      const k = key(id);
      return k !== undefined && of[kind].remove.run(k).changes > 0;
    }),
  };
}
