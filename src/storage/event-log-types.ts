// The event log's store: SNMP traps and MQTT messages, appended in batches, read in pages.
import type { FieldCondition } from '../core/filter-conditions.js';

/** 1 SNMP trap, 2 MQTT message (the `type` query parameter's numbers). */
export type EventTypeCode = 1 | 2;

export interface NewEventRecord {
  timestamp: number;
  type: EventTypeCode;
  agentId: string;
  entity: { entityId: string; entityType: 1 | 2; entityName: string } | null;
  payload: Record<string, unknown>;
}

export interface StoredEventRecord extends NewEventRecord {
  id: string;
}

export const TRAP_OID_PATH = 'payload.trapOid';

/**
 * The record paths a store narrows on: each is a column or an indexed expression in both
 * dialects, so a condition on it reads an index range instead of every record. `payload.trapOid`
 * is a string in every trap record and absent from every MQTT record (their payloads are
 * {topic, message, ...}): never an array, so a plain comparison is exact, and a condition on it
 * holds only for traps (stores add `type = 1`, which their partial trap OID index needs).
 */
export const STORE_CONDITION_PATHS: ReadonlySet<string> = new Set(['agentId', TRAP_OID_PATH]);

/** Sort keys the store can page by: each ends in the id, so the order is total and stable. */
export type EventSortKey = 'timestamp' | 'id' | 'type' | 'agentId';

export interface EventLogQuery {
  from?: number;
  to?: number;
  type?: EventTypeCode;
  /**
   * Narrowing conditions. Any path works, but only those in STORE_CONDITION_PATHS have a column
   * or index: a condition on another path reads every record's JSON in range, in one statement.
   */
  conditions?: FieldCondition[];
  /**
   * Only records of these entities (ids as the catalog gives them: decimal integers). Read
   * through the entity index, so one entity's page costs the same in a log of any size.
   */
  entityIds?: readonly string[];
  sort: EventSortKey;
  descending: boolean;
  limit: number;
  skip?: number;
  /** Keyset paging: the records after this one in the sort order (skip is then ignored). */
  after?: StoredEventRecord;
}

export interface EventLogStore {
  append(records: readonly NewEventRecord[]): Promise<void>;
  find(query: EventLogQuery): Promise<StoredEventRecord[]>;
  /** The newest record of each entity (the engine's latest event at start-up). */
  latestPerEntity(): Promise<StoredEventRecord[]>;
  /** How many records the log holds (counted by the store, not derived from ids: they have holes). */
  count(): Promise<number>;
  /**
   * Deletes records older than `timestamp`, oldest first: at most `limit` rows one by one, plus
   * whole time partitions lying entirely before it where the backend keeps them (PostgreSQL),
   * so the count returned may exceed `limit`.
   */
  deleteOlderThan(timestamp: number, limit: number): Promise<number>;
  /**
   * Deletes the oldest records (lowest ids) beyond the newest `max`, at most `limit` of them row
   * by row in one call (so appends are not held up long), plus whole partitions that hold only
   * such records (PostgreSQL); returns how many went. Counted and deleted in
   * one step: appends and deletes of other callers or nodes meanwhile never make it over-trim.
   */
  trimToCount(max: number, limit: number): Promise<number>;
}
