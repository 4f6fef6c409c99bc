// The record of every state-trigger fire (a webhook call or an e-mail) and of every
// notification sent through a channel (modules/notifications/), kept so that users can see what
// was sent, when, and why it failed.

export type TriggerType = 'webhook' | 'e-mail' | 'slack' | 'teams' | 'telegram' | 'http';

/** What a notification's send was about (absent on state-trigger runs). */
export type NotificationKind = 'raised' | 'level' | 'repeat' | 'escalation' | 'cleared' | 'test';

export interface NewTriggerRun {
  entityId: string;
  /** 1 object, 2 link. */
  entityType: 1 | 2;
  /** The entity's name when the trigger fired (the entity may be renamed or deleted later). */
  entityName: string;
  /** Position of the trigger in the entity's stateTriggers document when it fired. */
  triggerIndex: number;
  type: TriggerType;
  /** The webhook URL (any password in it masked) or the comma-separated recipients. */
  target: string;
  /** The state that fired the trigger, and the one the entity came from. */
  stateId: number;
  previousStateId: number;
  /** When the state change happened (the event's timestamp). */
  stateTimestamp: number;
  started: number;
  finished: number;
  /** Attempts made (0: never sent, e.g. no SMTP relay configured or dropped at shutdown). */
  attempts: number;
  ok: boolean;
  /** Why the last attempt failed; null when ok. */
  error: string | null;
  /** The HTTP status of the last webhook answer; null for e-mail or when none came. */
  httpStatus: number | null;
  // A notification's send (each absent on state-trigger runs). Its entity is the (first)
  // incident's, its stateId the incident's level and triggerIndex -1; a channel's test send
  // names entity '0' ("test message").
  /** The (first) incident of the message. */
  incidentId?: string;
  policyId?: string;
  channelId?: string;
  notification?: NotificationKind;
  /** Incidents the message stands for (a group: more than 1). */
  incidentCount?: number;
}

export interface TriggerRun extends NewTriggerRun {
  id: string;
}

export interface TriggerRunsQuery {
  /** Only the runs of this entity. */
  entityId?: string;
  /** Bounds on `started`, inclusive. */
  from?: number;
  to?: number;
  ok?: boolean;
  /** Only the sends of this notification channel. */
  channelId?: string;
  /** `triggers`: only state-trigger runs; `notifications`: only notification sends; absent: both. */
  source?: 'triggers' | 'notifications';
  limit: number;
  skip: number;
}

export interface TriggerRunsStore {
  /** Stores one finished run; answers its id. */
  add(run: NewTriggerRun): Promise<string>;
  /** Newest first (by `started`, then id). */
  find(query: TriggerRunsQuery): Promise<TriggerRun[]>;
  /** Deletes runs started before `timestamp`; answers how many. */
  deleteStartedBefore(timestamp: number): Promise<number>;
}
