import type { FieldCondition } from '../core/filter-conditions.js';
import type { CatalogStore } from './catalog-types.js';
import type { HistoryStore } from './history-types.js';
import type { IncidentsStore } from './incidents-types.js';
import type { TriggerRunsStore } from './trigger-types.js';
import type { EventLogStore } from './event-log-types.js';
import type { AnnotationsStore } from './annotation-types.js';
import type { PresetsStore } from './preset-types.js';
import type { AgentsStore } from './agent-types.js';
import type { DocsStore } from './docs-types.js';
import type { EngineMemoryStore } from './engine-memory-types.js';
import type { MaintenanceStore } from './maintenance-types.js';
import type { ClusterStore } from './cluster-types.js';
import type { LockoutStore } from './lockout-types.js';
import type { ChangeFeedStore } from './change-feed-types.js';
import type { NotificationConfigStore } from './notification-types.js';

// The store interfaces the services depend on: one per resource family. Every method returns
// a Promise so that a PostgreSQL implementation can stand behind the same interface.

export interface ObjectPermissions {
  include: Array<string | number>;
  exclude?: Array<string | number>;
}

export interface UserRecord {
  id: string;
  login: string;
  email: string;
  /** 2 active, 3 blocked (as stored; an expired activeTo also blocks, see users service). */
  status: number;
  language: string;
  contacts: unknown[];
  eventFilter: unknown[];
  permissions: string[];
  objectPermissions: ObjectPermissions | null;
  activeTo: number | null;
  isAdmin: boolean;
  passwordHash: string;
  tokenHash: string | null;
  /** Bumped whenever credentials or status change, so cached sign-ins can be dropped. */
  authVersion: number;
  created: number;
  updated: number;
}

export type NewUser = Omit<UserRecord, 'id' | 'authVersion' | 'tokenHash' | 'created' | 'updated'>;
export type UserChanges = Partial<Omit<UserRecord, 'id' | 'created' | 'updated' | 'authVersion'>>;

export interface Page {
  limit: number;
  skip: number;
}

/** Thrown by stores when a unique key (e.g. a login) is already taken. */
export class DuplicateKeyError extends Error {
  constructor(readonly key: string) {
    super(`duplicate ${key}`);
  }
}

export interface UsersStore {
  list(page: Page): Promise<UserRecord[]>;
  /** Every user; the user table stays small (people, not devices). */
  all(): Promise<UserRecord[]>;
  count(): Promise<number>;
  get(id: string): Promise<UserRecord | undefined>;
  getByLogin(login: string): Promise<UserRecord | undefined>;
  getByTokenHash(tokenHash: string): Promise<UserRecord | undefined>;
  create(user: NewUser, now: number): Promise<UserRecord>;
  /** Applies the changes; bumps authVersion when `bumpAuth` is set. Undefined if absent. */
  update(id: string, changes: UserChanges, now: number, bumpAuth: boolean): Promise<UserRecord | undefined>;
  delete(id: string): Promise<boolean>;
}

export interface SessionRecord {
  /** SHA-256 of the session id; the id itself is never stored. */
  idHash: string;
  userId: string;
  csrfToken: string;
  created: number;
  lastSeen: number;
}

export interface SessionsStore {
  create(session: SessionRecord): Promise<void>;
  get(idHash: string): Promise<SessionRecord | undefined>;
  touch(idHash: string, lastSeen: number): Promise<void>;
  delete(idHash: string): Promise<void>;
  /** Removes the user's sessions, except the one `exceptIdHash` names. */
  deleteForUser(userId: string, exceptIdHash?: string): Promise<void>;
  /** Removes sessions idle since before `idleBefore` or created before `createdBefore`. */
  deleteExpired(idleBefore: number, createdBefore: number): Promise<number>;
}

/** A security log record as the API shows it, minus `id` and with a millisecond timestamp. */
export interface SecurityEvent {
  timestamp: number;
  userId: string | null;
  level: string;
  severity: string;
  eventClassId: string;
  eventDescription: string;
  host: string;
  message: {
    remoteAddress: string;
    login: string;
    message: string;
    connection: {
      localAddress: string;
      localHost: string;
      localPort: number;
      remoteAddress: string;
      remoteHost: string;
      request: { request: string; hostname: string; userAgent: string };
    };
  };
  /** `count`: how many occurrences a folded record stands for (security-log repeat-folder.ts). */
  extra: { source: string; channel: string; count?: number };
}

export interface StoredSecurityEvent extends SecurityEvent {
  id: string;
}

export interface SecurityLogQuery {
  from?: number;
  to?: number;
  userId?: string;
  /** Keyset cursor: only records older than this (timestamp, id) pair. */
  before?: { timestamp: number; id: string };
  limit: number;
  /** Offset, used only when no cursor is given. */
  skip?: number;
  /** Conditions on record fields every returned record must meet (a superset may come back). */
  conditions?: FieldCondition[];
}

export interface SecurityLogStore {
  append(events: SecurityEvent[]): Promise<void>;
  /** Newest first. */
  find(query: SecurityLogQuery): Promise<StoredSecurityEvent[]>;
  deleteOlderThan(timestamp: number): Promise<number>;
}

/**
 * What differs between backends, as flags a caller may test (never a backend's name: a
 * service asks "may I push this query down", not "am I on SQLite").
 */
export interface StorageCapabilities {
  /**
   * A query runs to completion on the server's own thread (embedded SQLite): one that reads or
   * parses many rows stalls every request meanwhile. Callers then read in keyset batches and
   * keep conditions on free-form JSON (event payloads) out of the store's queries. A networked
   * database answers on its own time and may take them.
   */
  readonly blockingQueries: boolean;
  /**
   * Several server processes may open this storage at once (PostgreSQL): what one writes,
   * another must see, so nothing may be counted or cached in one process's memory as the truth
   * (ids, sequence positions). False for the embedded database in DATA_DIR (one process).
   */
  readonly sharedByNodes: boolean;
}

export interface Storage {
  readonly capabilities: StorageCapabilities;
  readonly users: UsersStore;
  readonly sessions: SessionsStore;
  readonly securityLog: SecurityLogStore;
  readonly catalog: CatalogStore;
  readonly history: HistoryStore;
  readonly incidents: IncidentsStore;
  readonly triggerRuns: TriggerRunsStore;
  readonly eventLog: EventLogStore;
  readonly annotations: AnnotationsStore;
  readonly presets: PresetsStore;
  readonly agents: AgentsStore;
  readonly docs: DocsStore;
  readonly engineMemory: EngineMemoryStore;
  readonly maintenance: MaintenanceStore;
  /** Node membership and the engine's leadership lease. */
  readonly cluster: ClusterStore;
  /** Failed sign-ins and lock-outs, shared by the nodes. */
  readonly lockouts: LockoutStore;
  /** What changed, for the other nodes' in-memory copies. */
  readonly changes: ChangeFeedStore;
  /** Notification channels and policies. */
  readonly notifications: NotificationConfigStore;
  /** Whether the database answers, and how its connections are used (readiness, self-metrics). */
  readonly health?: StorageHealth;
  close(): Promise<void>;
}

export interface StorageHealth {
  readonly backend: 'sqlite' | 'postgres';
  /** Resolves once the database answered a trivial query; rejects after `timeoutMs` or on error. */
  ping(timeoutMs: number): Promise<void>;
  /** The connection pool's use now (PostgreSQL; SQLite has one connection). */
  pool?(): { total: number; idle: number; waiting: number };
}
