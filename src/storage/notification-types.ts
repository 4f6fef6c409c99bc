// Notification channels (where a message goes: Slack, Teams, Telegram, a webhook, an e-mail, a
// templated HTTP call) and policies (which incidents go to which channels). Both are small
// documents of configuration: the store keeps each as a name, a type and a JSON document, and
// the notifications service gives the documents their shape and checks them.

/** `channel`: notification_channels; `policy`: notification_policies. */
export type NotificationConfigKind = 'channel' | 'policy';

export interface NotificationConfigRow {
  id: string;
  name: string;
  /** A channel's type (slack, teams...); 'policy' for policies. */
  type: string;
  data: Record<string, unknown>;
  created: number;
  updated: number;
}

export type NewNotificationConfig = Omit<NotificationConfigRow, 'id'>;

export interface NotificationConfigStore {
  /** Every row of the kind, by id (lists are bounded by the service). */
  list(kind: NotificationConfigKind): Promise<NotificationConfigRow[]>;
  get(kind: NotificationConfigKind, id: string): Promise<NotificationConfigRow | undefined>;
  create(kind: NotificationConfigKind, row: NewNotificationConfig): Promise<NotificationConfigRow>;
  /** Stores name, type, data and updated; undefined when it is gone. */
  update(kind: NotificationConfigKind, row: NotificationConfigRow): Promise<NotificationConfigRow | undefined>;
  delete(kind: NotificationConfigKind, id: string): Promise<boolean>;
}
