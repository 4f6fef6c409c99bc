// SQLite's plans for the event log's statements on a hot path: none may walk a whole table or
// index, since their cost would then grow with the log (5,000,000 records by default). Adding
// the entity index once made the per-batch latest-pointer statement read all of it, which
// halved trap intake at 1,000,000 records (issue 23) without failing any answer-checking test.
// SQLite-only: PostgreSQL plans by statistics, and its bench checks it at size.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import type { EventLogQuery, StoredEventRecord } from '../event-log-types.js';
import { createSqliteEventLogStore, EVENT_LOG_FILE, findStatement, LATEST_PER_ENTITY } from './event-log-store.js';
import { NOTE_LATEST } from './event-log-writer.js';

let dir: string;
let db: Database.Database;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-event-plans-'));
  await createSqliteEventLogStore(dir).close();
  db = new Database(join(dir, EVENT_LOG_FILE), { readonly: true });
});
after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const plan = (sql: string, params: unknown[]) =>
  (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join(' | ');
const at: StoredEventRecord = { id: '5', timestamp: 100, type: 1, agentId: 'a', entity: null, payload: {} };
const page = (q: Partial<EventLogQuery>) => { const { sql, params } = findStatement({ sort: 'timestamp', descending: true, limit: 100, ...q }); return plan(sql, params); };

describe('event log statements on SQLite', () => {
  it('the batch pointer update reads only the batch (a rowid range), the start-up read each pointer by rowid', () => {
    assert.match(plan(NOTE_LATEST, [0]), /SEARCH event_log USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    assert.doesNotMatch(plan(NOTE_LATEST, [0]), /SCAN|INDEX event_log_entity_ts/);
    assert.match(plan(LATEST_PER_ENTITY, []), /SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    assert.doesNotMatch(plan(LATEST_PER_ENTITY, []), /SCAN e\b/);
  });

  it("one entity's page, newest first, is a range of the entity index in its order (no sort), also with type, time and keyset", () => {
    for (const q of [{}, { type: 1 as const }, { from: 10, to: 500 }, { after: at }, { type: 2 as const, from: 10, after: at }]) {
      const p = page({ entityIds: ['7'], ...q });
      assert.match(p, /SEARCH event_log USING INDEX event_log_entity_ts \(entity_id=\?/, JSON.stringify(q));
      assert.doesNotMatch(p, /TEMP B-TREE/, `${JSON.stringify(q)}: ${p}`);
    }
  });

  // The shapes the service narrows on (modules/event-log/store-narrowing.ts): each an index range
  // in the page's order, never a sort of every matching record.
  it('the traps of one OID, newest first, are a range of the partial trap OID index in its order', () => {
    const oid = { conditions: [{ path: ['payload', 'trapOid'], op: 'eq' as const, value: '1.3.6.1.6.3.1.1.5.3' }] };
    for (const q of [oid, { ...oid, after: at }, { ...oid, type: 1 as const }, { ...oid, from: 10, to: 500 }]) {
      const p = page(q);
      assert.match(p, /SEARCH event_log USING INDEX event_log_trap_oid \(<expr>=\?/, JSON.stringify(q));
      assert.doesNotMatch(p, /TEMP B-TREE/, `${JSON.stringify(q)}: ${p}`);
    }
  });

  it('one receiver by time, and receivers (a value, several, a range) by receiver, read the receiver index in order', () => {
    const agent = (op: 'eq' | 'in' | 'gte', value: string | string[]) => ({ conditions: [{ path: ['agentId'], op, value }] });
    for (const q of [{ ...agent('eq', 'a') }, { ...agent('eq', 'a'), after: at }]) {
      assert.match(page(q), /SEARCH event_log USING INDEX event_log_agent_ts \(agent_id=\?/, JSON.stringify(q));
      assert.doesNotMatch(page(q), /TEMP B-TREE/, JSON.stringify(q));
    }
    for (const q of [agent('eq', 'a'), agent('in', ['a', 'b']), agent('gte', 'a')]) {
      assert.match(page({ ...q, sort: 'agentId' }), /event_log_agent_ts/, JSON.stringify(q));
      assert.doesNotMatch(page({ ...q, sort: 'agentId' }), /TEMP B-TREE/, JSON.stringify(q));
    }
  });

  it('the newest page and time ranges read the time index; a type filter its (type, ts) index', () => {
    assert.match(page({}), /SCAN event_log USING INDEX event_log_ts/);
    assert.match(page({ from: 1, to: 2 }), /SEARCH event_log USING INDEX event_log_ts \(ts>\? AND ts<\?\)/);
    assert.match(page({ type: 1 }), /SEARCH event_log USING INDEX event_log_type_ts \(type=\?\)/);
    for (const q of [{}, { type: 1 as const }, { from: 1 }]) assert.doesNotMatch(page(q), /TEMP B-TREE/, JSON.stringify(q));
  });
});
