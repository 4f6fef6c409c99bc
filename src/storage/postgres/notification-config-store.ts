// Notification channels and policies in PostgreSQL: ids from each table's identity.
import type { NewNotificationConfig, NotificationConfigKind, NotificationConfigRow, NotificationConfigStore } from '../notification-types.js';
import type { PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { type NotificationConfigDbRow, NOTIFICATION_CONFIG_COLUMNS as COLS, NOTIFICATION_TABLES, toNotificationConfig } from '../rows/notification-config-row.js';

export function createPgNotificationConfigStore(db: PgDb): NotificationConfigStore {
  return {
    async list(kind: NotificationConfigKind) {
      return (await db.rows<NotificationConfigDbRow>(`SELECT ${COLS} FROM ${NOTIFICATION_TABLES[kind]} ORDER BY id`)).map(toNotificationConfig);
    },
    async get(kind: NotificationConfigKind, id: string) {
      const key = rowId(id);
      const r = key === undefined ? undefined : await db.one<NotificationConfigDbRow>(`SELECT ${COLS} FROM ${NOTIFICATION_TABLES[kind]} WHERE id = $1`, [key]);
      return r && toNotificationConfig(r);
    },
    async create(kind: NotificationConfigKind, row: NewNotificationConfig) {
      const r = await db.one<NotificationConfigDbRow>(`INSERT INTO ${NOTIFICATION_TABLES[kind]} (name, type, data, created, updated)
        VALUES ($1, $2, $3, $4, $5) RETURNING ${COLS}`, [row.name, row.type, JSON.stringify(row.data), row.created, row.updated]);
      return toNotificationConfig(r!);
    },
    async update(kind: NotificationConfigKind, row: NotificationConfigRow) {
      const key = rowId(row.id);
      const r = key === undefined ? undefined : await db.one<NotificationConfigDbRow>(`UPDATE ${NOTIFICATION_TABLES[kind]}
        SET name = $1, type = $2, data = $3, updated = $4 WHERE id = $5 RETURNING ${COLS}`, [row.name, row.type, JSON.stringify(row.data), row.updated, key]);
      return r && toNotificationConfig(r);
    },
    async delete(kind: NotificationConfigKind, id: string) {
      const key = rowId(id);
      return key !== undefined && ((await db.query(`DELETE FROM ${NOTIFICATION_TABLES[kind]} WHERE id = $1`, [key])).rowCount ?? 0) > 0;
    },
  };
}
