// A notification_channels / notification_policies row as both dialects store it (data as JSON
// text), the table of each kind and the row → record mapping, kept once for both dialects.
import type { NotificationConfigKind, NotificationConfigRow } from '../notification-types.js';

export interface NotificationConfigDbRow {
  id: number | string;
  name: string;
  type: string;
  data: string;
  created: number | string;
  updated: number | string;
}

/** The table of each kind: a fixed map, so no caller's text reaches the SQL. */
export const NOTIFICATION_TABLES: Record<NotificationConfigKind, string> = {
  channel: 'notification_channels',
  policy: 'notification_policies',
};

export const NOTIFICATION_CONFIG_COLUMNS = 'id, name, type, data, created, updated';

export const toNotificationConfig = (r: NotificationConfigDbRow): NotificationConfigRow => ({
  id: String(r.id),
  name: r.name,
  type: r.type,
  data: JSON.parse(r.data) as Record<string, unknown>,
  created: Number(r.created),
  updated: Number(r.updated),
});
