// The catalog: what is monitored and how it is configured (objects, links, their properties,
// tags and settings, classes, states), plus the audit log of its changes and bulk jobs.
// Services keep the catalog in memory as their read model (see modules/catalog/catalog.ts);
// the store makes it durable. Every change is one batch of writes applied atomically, so an
// entity, its properties and the audit record of the change are stored together or not at all.

import type { FeedRow } from './change-feed-types.js';

export interface ObjectRow {
  id: string;
  name: string;
  class_id: string | null;
  state_id: number;
  owner_id: string | null;
  /** JSON text, as the API shows it. */
  client_data: string;
  discovery_id: string | null;
  parent_id: string[];
  tags: string[];
  created: number;
  updated: number;
}

export interface LinkRow {
  id: string;
  name: string;
  source: string;
  target: string;
  class_id: string | null;
  state_id: number;
  owner_id: string | null;
  client_data: string;
  tags: string[];
  operations: unknown[];
  created: number;
  updated: number;
}

export interface PropRow {
  id: string;
  entity_id: string;
  name: string;
  value: string;
  type_id: number;
  created: number;
  updated: number;
}

export interface TagRow {
  id: string;
  name: string;
  created: number;
  updated: number;
}

export interface ClassRow {
  id: string;
  name: string;
  description: string;
  icon: string;
  builtIn: boolean;
  created: number;
  updated: number;
}

export interface StateRow {
  id: number;
  name: string;
  priority: number;
  color: string;
  builtIn: boolean;
  created: number;
  updated: number;
}

// statRules: rules for incoming measurements (core/stat-rules); manualState: a manual state's
// window, one document [ManualWindow] (core/states/manual-window.ts), so it survives a restart;
// dependencies: what the entity's incidents follow from, one document [{dependsOn, parents,
// minLevel}] (modules/dependencies).
export const SETTING_KINDS = ['stateConditions', 'incidentConditions', 'stateTriggers', 'statRules', 'manualState', 'dependencies'] as const;
export type SettingKind = (typeof SETTING_KINDS)[number];

export interface SettingRow {
  entity_id: string;
  kind: SettingKind;
  value: unknown[];
  updated: number;
}

/**
 * The documents a class holds for its entities (class templates): an entity without its own
 * document of a kind follows its class's (core/classes/effective.ts).
 */
export const CLASS_SETTING_KINDS = ['stateConditions', 'incidentConditions'] as const satisfies readonly SettingKind[];
export type ClassSettingKind = (typeof CLASS_SETTING_KINDS)[number];

export interface ClassSettingRow {
  class_id: string;
  kind: ClassSettingKind;
  value: unknown[];
  updated: number;
}

/** A property of a class, inherited by its entities (ids from the properties' id space). */
export interface ClassPropRow {
  id: string;
  class_id: string;
  name: string;
  value: string;
  type_id: number;
  created: number;
  updated: number;
}

/** `class.<kind>`: a class's documents; `class.property`: a class's properties. */
export type AuditResource = 'object' | 'link' | 'property' | 'tag' | 'class' | 'state' | SettingKind | `class.${ClassSettingKind}` | 'class.property';

export interface AuditRecord {
  timestamp: number;
  userId: string | null;
  action: 'create' | 'update' | 'delete';
  resource: AuditResource;
  resourceId: string;
  /** The entity concerned: the entity itself, or the owner of a property or setting. */
  entityId: string | null;
  before: unknown;
  after: unknown;
}

export interface StoredAuditRecord extends AuditRecord {
  id: string;
}

export interface AuditQuery {
  entityId?: string;
  userId?: string;
  from?: number;
  to?: number;
  limit: number;
  skip: number;
}

export interface BulkJob {
  bulkId: string;
  userId: string;
  created: number;
  finished: boolean;
  matched: number;
  changed: number;
  errors: string[];
}

/** The engine's own-state record of an entity (see migration 0003). */
export interface EntityStateRow {
  entity_id: string;
  /** The state its conditions (or data expiry) gave it. */
  auto_state: number;
  /** A state set by a user, which wins over `auto_state` until cleared. */
  manual_state: number | null;
  /** When it last got data (for expiry); null if never. */
  data_at: number | null;
}

export interface StateChangeRow {
  entityId: string;
  /** The entity's shown state after the change (entities.state_id). */
  stateId: number;
  previousStateId: number;
  timestamp: number;
  reason: { code: number; [detail: string]: unknown };
}

export interface StoredStateChange extends StateChangeRow {
  id: string;
}

export interface StateHistoryQuery {
  entityId: string;
  from?: number;
  to?: number;
  limit: number;
  skip: number;
}

/** One write of a batch. "put" inserts or replaces the whole row. */
export type CatalogWrite =
  | { op: 'putObject'; row: ObjectRow; parents?: boolean; tags?: boolean }
  | { op: 'putLink'; row: LinkRow; tags?: boolean }
  | { op: 'deleteEntities'; ids: string[] }
  | { op: 'putProp'; row: PropRow }
  | { op: 'deleteProp'; id: string; entityId: string }
  | { op: 'putSetting'; row: SettingRow }
  | { op: 'deleteSetting'; entityId: string; kind: SettingKind }
  | { op: 'putTag'; row: TagRow }
  | { op: 'deleteTag'; id: string }
  | { op: 'putClass'; row: ClassRow }
  | { op: 'deleteClass'; id: string }
  | { op: 'putState'; row: StateRow }
  | { op: 'putClassSetting'; row: ClassSettingRow }
  | { op: 'deleteClassSetting'; classId: string; kind: ClassSettingKind }
  | { op: 'putClassProp'; row: ClassPropRow }
  | { op: 'deleteClassProp'; id: string; classId: string }
  | { op: 'audit'; record: AuditRecord }
  /** Shown states that changed (with their history) and own-state records that changed. */
  | { op: 'setStates'; changes: StateChangeRow[]; own: EntityStateRow[] };

/** The id spaces of the catalog (objects and links share `entities`). */
export type IdSpace = 'entities' | 'props' | 'tags' | 'classes';

/**
 * Ids a change gave out (`after` + 1 up to `last` in one space), stored with its writes. The
 * store's counter is the authority, so that two processes on one database can never give out
 * the same id: a claim holds only while no id above `after` has been given out since (the
 * counter is still at most `after`); the batch then moves the counter to `last`, in the same
 * transaction as the rows. Otherwise the whole batch is refused with IdsTakenError, and the
 * catalog re-reads the counters and runs the change again. Counters never go down (ids stay
 * unique after deletion).
 */
export interface IdClaim {
  space: IdSpace;
  after: number;
  last: number;
}

/** Another writer gave out ids of a claimed range first; nothing of the batch was stored. */
export class IdsTakenError extends Error {
  constructor(readonly space: IdSpace) {
    super(`ids of ${space} were given out by another writer`);
  }
}

export interface CatalogSnapshot {
  objects: ObjectRow[];
  links: LinkRow[];
  props: PropRow[];
  settings: SettingRow[];
  tags: TagRow[];
  classes: ClassRow[];
  states: StateRow[];
  /** Class templates: the classes' documents and properties (ordered by class, then kind / id). */
  classSettings: ClassSettingRow[];
  classProps: ClassPropRow[];
  /** The highest id ever given out, per id space, so deleted ids are not reused. */
  lastIds: Record<IdSpace, number>;
}

/**
 * Takes the rows of the large tables one at a time as they are read, so a loader can turn each
 * into its own record at once instead of holding every row until the end.
 */
export interface CatalogRowVisitor {
  object(row: ObjectRow): void;
  link(row: LinkRow): void;
  prop(row: PropRow): void;
}

export interface CatalogStore {
  /**
   * The whole catalog (audit log and bulk jobs excepted), ordered by id. With a visitor, the
   * objects, links and properties go to it (in id order) and their lists come back empty.
   */
  load(visitor?: CatalogRowVisitor): Promise<CatalogSnapshot>;
  /**
   * Applies the writes in one transaction: all of them or none. `claims` are the ids the writes
   * were given (see IdClaim); a claim that no longer holds refuses the batch (IdsTakenError).
   * `feed`: rows for the change feed, appended in the same transaction, so the other nodes
   * hear of every change that committed and of none that did not (a store only one node uses
   * has no feed and ignores them).
   */
  apply(writes: readonly CatalogWrite[], claims?: readonly IdClaim[], feed?: readonly FeedRow[]): Promise<void>;
  /** The highest id given out so far per id space (the counters claims are checked against). */
  lastIds(): Promise<Record<IdSpace, number>>;
  /** Newest first. */
  audit(query: AuditQuery): Promise<StoredAuditRecord[]>;
  putBulkJob(job: BulkJob): Promise<void>;
  /** Every entity's own-state record. */
  entityStates(): Promise<EntityStateRow[]>;
  /** Newest first. */
  stateHistory(query: StateHistoryQuery): Promise<StoredStateChange[]>;
  /** The time of every entity's latest state change (entities that never changed are left out). */
  lastStateChanges(): Promise<Array<{ entityId: string; timestamp: number }>>;
  getBulkJob(bulkId: string): Promise<BulkJob | undefined>;
  /** Marks jobs left unfinished by a stop as finished with `error`; returns how many. */
  abandonBulkJobs(error: string): Promise<number>;
}
