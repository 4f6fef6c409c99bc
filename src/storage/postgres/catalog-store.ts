// The catalog in PostgreSQL: loaded whole at start (catalog-load.ts), changed by write
// batches, each batch one transaction (catalog-write.ts) with its id claims checked and
// recorded under a lock (catalog-ids.ts); the audit log, state history and bulk jobs here.
import type { AuditQuery, BulkJob, CatalogStore, StoredAuditRecord } from '../catalog-types.js';
import { DuplicateKeyError } from '../types.js';
import { lockAndCheckClaims, readCounters } from './catalog-ids.js';
import { loadCatalog } from './catalog-load.js';
import { applyWrites } from './catalog-write.js';
import { isUniqueViolation, type PgDb } from './pg-db.js';
import { appendFeedRows } from './change-feed-store.js';

const str = (v: number | null) => (v === null ? null : String(v));

/** The unique indexes of the catalog and the key the API names in a duplicate error (as the SQLite store does). */
const DUPLICATE_KEYS: Record<string, string> = {
  tags_name_key: 'tag name', classes_name_key: 'class name', states_name_key: 'state name',
  entity_props_entity_id_name_key: 'property name', class_props_class_id_name_key: 'property name', entities_discovery_id: 'discovery_id',
};

interface JobDbRow { id: string; user_id: string; created: number; finished: number; matched: number; changed: number; errors: string }
const jobOf = (r: JobDbRow): BulkJob => ({
  bulkId: r.id, userId: r.user_id, created: r.created, finished: r.finished === 1, matched: r.matched, changed: r.changed, errors: JSON.parse(r.errors),
});
const UPSERT_JOB = `INSERT INTO bulk_jobs (id, user_id, created, finished, matched, changed, errors) VALUES ($1, $2, $3, $4, $5, $6, $7)
  ON CONFLICT (id) DO UPDATE SET finished = excluded.finished, matched = excluded.matched, changed = excluded.changed, errors = excluded.errors`;

export function createPgCatalogStore(db: PgDb): CatalogStore {
  return {
    load: (visitor) => loadCatalog(db, visitor),
    lastIds: () => readCounters(db),

    async apply(writes, claims = [], feed = []) {
      if (writes.length === 0 && claims.length === 0) return;
      try {
        await db.tx(async (q) => {
          const counters = await lockAndCheckClaims(q, writes, claims);
          await applyWrites(q, writes);
          await counters.finish();
          await appendFeedRows(q, feed);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new DuplicateKeyError(DUPLICATE_KEYS[(err as { constraint?: string }).constraint ?? ''] ?? 'key');
        throw err;
      }
    },

    async audit(q: AuditQuery): Promise<StoredAuditRecord[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      const bind = (v: unknown) => `$${params.push(v)}`;
      if (q.entityId !== undefined) {
        if (!/^-?[0-9]{1,18}$/.test(q.entityId)) return [];
        where.push(`entity_id = ${bind(Number(q.entityId))}`);
      }
      if (q.userId !== undefined) where.push(`user_id = ${bind(q.userId)}`);
      if (q.from !== undefined) where.push(`timestamp >= ${bind(q.from)}`);
      if (q.to !== undefined) where.push(`timestamp <= ${bind(q.to)}`);
      const sql = `SELECT * FROM audit_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY timestamp DESC, id DESC LIMIT ${bind(q.limit)} OFFSET ${bind(q.skip)}`;
      const rows = await db.rows<{
        id: number; timestamp: number; user_id: string | null; action: StoredAuditRecord['action'];
        resource: StoredAuditRecord['resource']; resource_id: string; entity_id: number | null; before: string | null; after: string | null;
      }>(sql, params);
      return rows.map((r) => ({
        id: String(r.id), timestamp: r.timestamp, userId: r.user_id, action: r.action, resource: r.resource, resourceId: r.resource_id,
        entityId: str(r.entity_id), before: r.before === null ? null : JSON.parse(r.before), after: r.after === null ? null : JSON.parse(r.after),
      }));
    },

    async entityStates() {
      const rows = await db.rows<{ entity_id: number; auto_state: number; manual_state: number | null; data_at: number | null }>(
        'SELECT entity_id, auto_state, manual_state, data_at FROM entity_states');
      return rows.map((r) => ({ ...r, entity_id: String(r.entity_id) }));
    },

    async stateHistory(q) {
      if (!/^-?[0-9]{1,18}$/.test(q.entityId)) return [];
      const params: unknown[] = [Number(q.entityId)];
      const bind = (v: unknown) => `$${params.push(v)}`;
      const where = ['entity_id = $1'];
      if (q.from !== undefined) where.push(`timestamp >= ${bind(q.from)}`);
      if (q.to !== undefined) where.push(`timestamp <= ${bind(q.to)}`);
      const rows = await db.rows<{ id: number; entity_id: number; state_id: number; previous_state_id: number; timestamp: number; reason: string }>(
        `SELECT * FROM state_history WHERE ${where.join(' AND ')} ORDER BY timestamp DESC, id DESC LIMIT ${bind(q.limit)} OFFSET ${bind(q.skip)}`, params);
      return rows.map((r) => ({
        id: String(r.id), entityId: String(r.entity_id), stateId: r.state_id, previousStateId: r.previous_state_id, timestamp: r.timestamp, reason: JSON.parse(r.reason),
      }));
    },

    async lastStateChanges() {
      // One index seek per entity (state_history_entity_time), not a scan of the whole history.
      const rows = await db.rows<{ id: number; ts: number }>(`SELECT e.id, h.ts FROM entities e
        CROSS JOIN LATERAL (SELECT max(timestamp) AS ts FROM state_history s WHERE s.entity_id = e.id) h WHERE h.ts IS NOT NULL`);
      return rows.map((r) => ({ entityId: String(r.id), timestamp: r.ts }));
    },

    async putBulkJob(job) {
      await db.query(UPSERT_JOB, [job.bulkId, job.userId, job.created, job.finished ? 1 : 0, job.matched, job.changed, JSON.stringify(job.errors)]);
    },
    async getBulkJob(bulkId) {
      const r = await db.one<JobDbRow>('SELECT * FROM bulk_jobs WHERE id = $1', [bulkId]);
      return r && jobOf(r);
    },
    async abandonBulkJobs(error) {
      // One statement: jobs another node finishes meanwhile are not touched (finished = 0 is rechecked).
      const res = await db.query(`UPDATE bulk_jobs SET finished = 1, changed = 0, errors = (errors::jsonb || jsonb_build_array($1::text))::text
        WHERE finished = 0`, [error]);
      return res.rowCount ?? 0;
    },
  };
}
