// The catalog in SQLite: loaded whole at start, changed by write batches, each batch one
// transaction of prepared statements.
import type Database from 'better-sqlite3';
import type {
  AuditQuery, BulkJob, CatalogRowVisitor, CatalogSnapshot, CatalogStore, CatalogWrite, ClassPropRow, ClassRow, ClassSettingKind, ClassSettingRow, IdClaim, IdSpace, LinkRow, ObjectRow, PropRow,
  SettingKind, SettingRow, StateRow, StoredAuditRecord, TagRow,
} from '../catalog-types.js';
import { IdsTakenError } from '../catalog-types.js';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { DuplicateKeyError } from '../types.js';
import type { WriteGate } from './write-gate.js';

const str = (v: number | null) => (v === null ? null : String(v));
/** One shared empty list for the many rows with no parents, tags or operations (lists are never changed in place). */
const NONE: string[] = Object.freeze([]) as unknown as string[];
const num = (v: string | null) => (v === null ? null : Number(v));

interface EntityDbRow {
  id: number; kind: number; name: string; class_id: number | null; state_id: number; owner_id: string | null;
  client_data: string; discovery_id: string | null; source: number | null; target: number | null;
  operations: string; created: number; updated: number;
}

/** Writes of a batch applied between two yields to the event loop when the batch is large. */
const SLICE = 2000;

/**
 * The id counter of each id space is SQLite's own AUTOINCREMENT counter of its table
 * (sqlite_sequence): it never goes down, rows inserted with an explicit id move it too, and a
 * claim moves it in the batch's transaction (documented as writable by ordinary statements).
 */
const SEQUENCE_OF: Record<IdSpace, string> = { entities: 'entities', props: 'entity_props', tags: 'tags', classes: 'classes' };
const ID_SPACES = Object.keys(SEQUENCE_OF) as IdSpace[];

export function createSqliteCatalogStore(db: Database.Database, gate: WriteGate): CatalogStore {
  const upsertEntity = db.prepare(`
    INSERT INTO entities (id, kind, name, class_id, state_id, owner_id, client_data, discovery_id, source, target, operations, created, updated)
    VALUES (@id, @kind, @name, @class_id, @state_id, @owner_id, @client_data, @discovery_id, @source, @target, @operations, @created, @updated)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, class_id = excluded.class_id, state_id = excluded.state_id,
      owner_id = excluded.owner_id, client_data = excluded.client_data, discovery_id = excluded.discovery_id,
      source = excluded.source, target = excluded.target, operations = excluded.operations, updated = excluded.updated`);
  const deleteParents = db.prepare('DELETE FROM object_parents WHERE child_id = ?');
  const insertParent = db.prepare('INSERT INTO object_parents (child_id, parent_id, position) VALUES (?, ?, ?)');
  const deleteTags = db.prepare('DELETE FROM entity_tags WHERE entity_id = ?');
  const insertTag = db.prepare('INSERT INTO entity_tags (entity_id, tag_id, position) VALUES (?, ?, ?)');
  const deleteEntities = db.prepare('DELETE FROM entities WHERE id IN (SELECT value FROM json_each(?))');
  const upsertProp = db.prepare(`
    INSERT INTO entity_props (id, entity_id, name, value, type_id, created, updated)
    VALUES (@id, @entity_id, @name, @value, @type_id, @created, @updated)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, value = excluded.value, type_id = excluded.type_id, updated = excluded.updated`);
  const deleteProp = db.prepare('DELETE FROM entity_props WHERE id = ?');
  const upsertSetting = db.prepare(`
    INSERT INTO entity_settings (entity_id, kind, value, updated) VALUES (?, ?, ?, ?)
    ON CONFLICT (entity_id, kind) DO UPDATE SET value = excluded.value, updated = excluded.updated`);
  const deleteSetting = db.prepare('DELETE FROM entity_settings WHERE entity_id = ? AND kind = ?');
  const upsertTag = db.prepare(`
    INSERT INTO tags (id, name, created, updated) VALUES (@id, @name, @created, @updated)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated = excluded.updated`);
  const deleteTag = db.prepare('DELETE FROM tags WHERE id = ?');
  const upsertClass = db.prepare(`
    INSERT INTO classes (id, name, description, icon, built_in, created, updated)
    VALUES (@id, @name, @description, @icon, @built_in, @created, @updated)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, icon = excluded.icon, updated = excluded.updated`);
  const deleteClass = db.prepare('DELETE FROM classes WHERE id = ?');
  const upsertState = db.prepare(`
    INSERT INTO states (id, name, priority, color, built_in, created, updated)
    VALUES (@id, @name, @priority, @color, @built_in, @created, @updated)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, priority = excluded.priority, color = excluded.color, updated = excluded.updated`);
  const upsertClassSetting = db.prepare(`
    INSERT INTO class_settings (class_id, kind, value, updated) VALUES (?, ?, ?, ?)
    ON CONFLICT (class_id, kind) DO UPDATE SET value = excluded.value, updated = excluded.updated`);
  const deleteClassSetting = db.prepare('DELETE FROM class_settings WHERE class_id = ? AND kind = ?');
  const upsertClassProp = db.prepare(`
    INSERT INTO class_props (id, class_id, name, value, type_id, created, updated)
    VALUES (@id, @class_id, @name, @value, @type_id, @created, @updated)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, value = excluded.value, type_id = excluded.type_id, updated = excluded.updated`);
  const deleteClassProp = db.prepare('DELETE FROM class_props WHERE id = ?');
  const insertAudit = db.prepare(`
    INSERT INTO audit_log (timestamp, user_id, action, resource, resource_id, entity_id, before, after)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);

  const setState = db.prepare('UPDATE entities SET state_id = ? WHERE id = ?');
  const insertStateChange = db.prepare(
    'INSERT INTO state_history (entity_id, state_id, previous_state_id, timestamp, reason) VALUES (?, ?, ?, ?, ?)');
  const upsertOwnState = db.prepare(`
    INSERT INTO entity_states (entity_id, auto_state, manual_state, data_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (entity_id) DO UPDATE SET auto_state = excluded.auto_state, manual_state = excluded.manual_state, data_at = excluded.data_at`);
  const listOwnStates = db.prepare('SELECT entity_id, auto_state, manual_state, data_at FROM entity_states');

  const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

  function entityParams(kind: 1 | 2, row: ObjectRow | LinkRow) {
    const link = kind === 2 ? (row as LinkRow) : undefined;
    return {
      id: Number(row.id), kind, name: row.name, class_id: num(row.class_id), state_id: row.state_id, owner_id: row.owner_id,
      client_data: row.client_data, discovery_id: kind === 1 ? (row as ObjectRow).discovery_id : null,
      source: link ? Number(link.source) : null, target: link ? Number(link.target) : null,
      operations: JSON.stringify(link?.operations ?? []), created: row.created, updated: row.updated,
    };
  }

  function setTags(id: string, tags: readonly string[]) {
    deleteTags.run(Number(id));
    tags.forEach((t, i) => insertTag.run(Number(id), Number(t), i));
  }

  function applyOne(w: CatalogWrite): void {
    switch (w.op) {
      case 'putObject':
        upsertEntity.run(entityParams(1, w.row));
        if (w.parents ?? true) {
          deleteParents.run(Number(w.row.id));
          w.row.parent_id.forEach((p, i) => insertParent.run(Number(w.row.id), Number(p), i));
        }
        if (w.tags ?? true) setTags(w.row.id, w.row.tags);
        return;
      case 'putLink':
        upsertEntity.run(entityParams(2, w.row));
        if (w.tags ?? true) setTags(w.row.id, w.row.tags);
        return;
      case 'deleteEntities':
        deleteEntities.run(JSON.stringify(w.ids.map(Number)));
        return;
      case 'putProp':
        upsertProp.run({ ...w.row, id: Number(w.row.id), entity_id: Number(w.row.entity_id) });
        return;
      case 'deleteProp':
        deleteProp.run(Number(w.id));
        return;
      case 'putSetting':
        upsertSetting.run(Number(w.row.entity_id), w.row.kind, JSON.stringify(w.row.value), w.row.updated);
        return;
      case 'deleteSetting':
        deleteSetting.run(Number(w.entityId), w.kind);
        return;
      case 'putTag':
        upsertTag.run({ ...w.row, id: Number(w.row.id) });
        return;
      case 'deleteTag':
        deleteTag.run(Number(w.id));
        return;
      case 'putClass':
        upsertClass.run({ ...w.row, id: Number(w.row.id), built_in: w.row.builtIn ? 1 : 0 });
        return;
      case 'deleteClass':
        deleteClass.run(Number(w.id));
        return;
      case 'putState': {
        const { builtIn, ...rest } = w.row;
        upsertState.run({ ...rest, built_in: builtIn ? 1 : 0 });
        return;
      }
      case 'putClassSetting':
        upsertClassSetting.run(Number(w.row.class_id), w.row.kind, JSON.stringify(w.row.value), w.row.updated);
        return;
      case 'deleteClassSetting':
        deleteClassSetting.run(Number(w.classId), w.kind);
        return;
      case 'putClassProp':
        upsertClassProp.run({ ...w.row, id: Number(w.row.id), class_id: Number(w.row.class_id) });
        return;
      case 'deleteClassProp':
        deleteClassProp.run(Number(w.id));
        return;
      case 'setStates':
        for (const c of w.changes) {
          setState.run(c.stateId, Number(c.entityId));
          insertStateChange.run(Number(c.entityId), c.stateId, c.previousStateId, c.timestamp, JSON.stringify(c.reason));
        }
        for (const o of w.own) upsertOwnState.run(Number(o.entity_id), o.auto_state, o.manual_state, o.data_at);
        return;
      case 'audit': {
        const r = w.record;
        insertAudit.run(r.timestamp, r.userId, r.action, r.resource, r.resourceId, num(r.entityId), json(r.before), json(r.after));
        return;
      }
    }
  }

  const lastId = db.prepare<[string], { seq: number }>('SELECT seq FROM sqlite_sequence WHERE name = ?').pluck();
  const raiseSeq = db.prepare('UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?');
  const addSeq = db.prepare('INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)');
  const seq = (space: IdSpace) => (lastId.get(SEQUENCE_OF[space]) as number | undefined) ?? 0;
  const lastIds = () => Object.fromEntries(ID_SPACES.map((space) => [space, seq(space)])) as Record<IdSpace, number>;

  /** Refuses the batch when another writer gave out ids above a claim's start (in the transaction). */
  function checkClaims(claims: readonly IdClaim[]): void {
    for (const c of claims) if (seq(c.space) > c.after) throw new IdsTakenError(c.space);
  }

  /** Moves the counters past the claimed ids, whether or not every claimed id was used. */
  function recordClaims(claims: readonly IdClaim[]): void {
    for (const c of claims) {
      const table = SEQUENCE_OF[c.space];
      if (raiseSeq.run(c.last, table, c.last).changes === 0) addSeq.run(table, c.last, table);
    }
  }

  const applyAll = db.transaction((writes: readonly CatalogWrite[], claims: readonly IdClaim[]) => {
    checkClaims(claims);
    for (const w of writes) applyOne(w);
    recordClaims(claims);
  });

  const upsertJob = db.prepare(`
    INSERT INTO bulk_jobs (id, user_id, created, finished, matched, changed, errors)
    VALUES (@bulkId, @userId, @created, @finished, @matched, @changed, @errors)
    ON CONFLICT (id) DO UPDATE SET finished = excluded.finished, matched = excluded.matched, changed = excluded.changed, errors = excluded.errors`);
  const getJob = db.prepare('SELECT * FROM bulk_jobs WHERE id = ?');
  const listUnfinished = db.prepare('SELECT * FROM bulk_jobs WHERE finished = 0');

  return {
    async load(visitor?: CatalogRowVisitor): Promise<CatalogSnapshot> {
      const parents = new Map<number, string[]>();
      for (const r of db.prepare('SELECT child_id, parent_id FROM object_parents ORDER BY child_id, position').iterate() as Iterable<{ child_id: number; parent_id: number }>) {
        let list = parents.get(r.child_id);
        if (!list) parents.set(r.child_id, (list = []));
        list.push(String(r.parent_id));
      }
      const tags = new Map<number, string[]>();
      for (const r of db.prepare('SELECT entity_id, tag_id FROM entity_tags ORDER BY entity_id, position').iterate() as Iterable<{ entity_id: number; tag_id: number }>) {
        let list = tags.get(r.entity_id);
        if (!list) tags.set(r.entity_id, (list = []));
        list.push(String(r.tag_id));
      }
      const objects: ObjectRow[] = [];
      const links: LinkRow[] = [];
      const props: PropRow[] = [];
      const visit: CatalogRowVisitor = visitor ?? { object: (r) => objects.push(r), link: (r) => links.push(r), prop: (r) => props.push(r) };
      // Rows are built in their final shape in one step: at 100,000s of rows, a spread copy
      // per row is garbage the loader would pay for.
      for (const r of db.prepare('SELECT * FROM entities ORDER BY id').iterate() as Iterable<EntityDbRow>) {
        if (r.kind === 1) {
          visit.object({
            id: String(r.id), name: r.name, class_id: str(r.class_id), state_id: r.state_id, owner_id: r.owner_id, client_data: r.client_data,
            discovery_id: r.discovery_id, parent_id: parents.get(r.id) ?? NONE, tags: tags.get(r.id) ?? NONE, created: r.created, updated: r.updated,
          });
        } else {
          visit.link({
            id: String(r.id), name: r.name, source: String(r.source), target: String(r.target), class_id: str(r.class_id), state_id: r.state_id,
            owner_id: r.owner_id, client_data: r.client_data, tags: tags.get(r.id) ?? NONE, operations: r.operations === '[]' ? NONE : JSON.parse(r.operations),
            created: r.created, updated: r.updated,
          });
        }
      }
      for (const p of db.prepare('SELECT * FROM entity_props ORDER BY id').iterate() as Iterable<Omit<PropRow, 'id' | 'entity_id'> & { id: number; entity_id: number }>) {
        visit.prop({ id: String(p.id), entity_id: String(p.entity_id), name: p.name, value: p.value, type_id: p.type_id, created: p.created, updated: p.updated });
      }
      const settings = (db.prepare('SELECT * FROM entity_settings').all() as Array<{ entity_id: number; kind: SettingKind; value: string; updated: number }>).map(
        (s): SettingRow => ({ entity_id: String(s.entity_id), kind: s.kind, value: JSON.parse(s.value), updated: s.updated }),
      );
      const tagRows = (db.prepare('SELECT * FROM tags ORDER BY id').all() as Array<TagRow & { id: number }>).map((t) => ({ ...t, id: String(t.id) }));
      const classes = (db.prepare('SELECT * FROM classes ORDER BY id').all() as Array<{ id: number; built_in: number } & Omit<ClassRow, 'id' | 'builtIn'>>).map(
        ({ built_in, ...c }) => ({ ...c, id: String(c.id), builtIn: built_in === 1 }),
      );
      const states = (db.prepare('SELECT * FROM states ORDER BY id').all() as Array<{ built_in: number } & Omit<StateRow, 'builtIn'>>).map(
        ({ built_in, ...s }) => ({ ...s, builtIn: built_in === 1 }),
      );
      const classSettings = (db.prepare('SELECT * FROM class_settings ORDER BY class_id, kind').all() as Array<{ class_id: number; kind: ClassSettingKind; value: string; updated: number }>).map(
        (s): ClassSettingRow => ({ class_id: String(s.class_id), kind: s.kind, value: JSON.parse(s.value), updated: s.updated }),
      );
      const classProps = (db.prepare('SELECT * FROM class_props ORDER BY class_id, id').all() as Array<Omit<ClassPropRow, 'id' | 'class_id'> & { id: number; class_id: number }>).map(
        (p): ClassPropRow => ({ ...p, id: String(p.id), class_id: String(p.class_id) }),
      );
      return { objects, links, props, settings, tags: tagRows, classes, states, classSettings, classProps, lastIds: lastIds() };
    },

    lastIds: async () => lastIds(),

    async apply(writes, claims = []) {
      try {
        if (writes.length <= SLICE) {
          await gate.run(() => applyAll(writes, claims));
          return;
        }
        // A large batch (a bulk) in slices, one transaction: all of it or none, while the
        // event loop answers reads between slices and other writes wait at the gate.
        await gate.exclusive(async () => {
          db.exec('BEGIN IMMEDIATE');
          try {
            checkClaims(claims);
            for (let i = 0; i < writes.length; i += SLICE) {
              for (let j = i; j < Math.min(i + SLICE, writes.length); j++) applyOne(writes[j]!);
              await yieldToEventLoop();
            }
            recordClaims(claims);
            db.exec('COMMIT');
          } catch (err) {
            if (db.inTransaction) db.exec('ROLLBACK');
            throw err;
          }
        });
      } catch (err) {
        const e = err as { code?: string; message?: string };
        if (e.code === 'SQLITE_CONSTRAINT_UNIQUE') {
          const key = /tags\.name/.test(e.message ?? '') ? 'tag name' : /classes\.name/.test(e.message ?? '') ? 'class name'
            : /states\.name/.test(e.message ?? '') ? 'state name' : /entity_props|class_props/.test(e.message ?? '') ? 'property name'
            : /discovery_id/.test(e.message ?? '') ? 'discovery_id' : 'key';
          throw new DuplicateKeyError(key);
        }
        throw err;
      }
    },

    async audit(q: AuditQuery): Promise<StoredAuditRecord[]> {
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.entityId !== undefined) where.push('entity_id = ?'), params.push(Number(q.entityId));
      if (q.userId !== undefined) where.push('user_id = ?'), params.push(q.userId);
      if (q.from !== undefined) where.push('timestamp >= ?'), params.push(q.from);
      if (q.to !== undefined) where.push('timestamp <= ?'), params.push(q.to);
      const sql = `SELECT * FROM audit_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY timestamp DESC, id DESC LIMIT ? OFFSET ?`;
      const rows = db.prepare(sql).all(...params, q.limit, q.skip) as Array<{
        id: number; timestamp: number; user_id: string | null; action: StoredAuditRecord['action'];
        resource: StoredAuditRecord['resource']; resource_id: string; entity_id: number | null; before: string | null; after: string | null;
      }>;
      return rows.map((r) => ({
        id: String(r.id), timestamp: r.timestamp, userId: r.user_id, action: r.action, resource: r.resource, resourceId: r.resource_id,
        entityId: str(r.entity_id), before: r.before === null ? null : JSON.parse(r.before), after: r.after === null ? null : JSON.parse(r.after),
      }));
    },

    async entityStates() {
      const rows = listOwnStates.all() as Array<{ entity_id: number; auto_state: number; manual_state: number | null; data_at: number | null }>;
      return rows.map((r) => ({ ...r, entity_id: String(r.entity_id) }));
    },

    async stateHistory(q) {
      const where = ['entity_id = ?'];
      const params: unknown[] = [Number(q.entityId)];
      if (q.from !== undefined) where.push('timestamp >= ?'), params.push(q.from);
      if (q.to !== undefined) where.push('timestamp <= ?'), params.push(q.to);
      const rows = db.prepare(`SELECT * FROM state_history WHERE ${where.join(' AND ')} ORDER BY timestamp DESC, id DESC LIMIT ? OFFSET ?`)
        .all(...params, q.limit, q.skip) as Array<{ id: number; entity_id: number; state_id: number; previous_state_id: number; timestamp: number; reason: string }>;
      return rows.map((r) => ({
        id: String(r.id), entityId: String(r.entity_id), stateId: r.state_id, previousStateId: r.previous_state_id, timestamp: r.timestamp, reason: JSON.parse(r.reason),
      }));
    },

    async lastStateChanges() {
      // One index seek per entity (state_history_entity_time), not a scan of the whole history.
      const rows = db.prepare('SELECT id, (SELECT MAX(timestamp) FROM state_history h WHERE h.entity_id = e.id) AS ts FROM entities e').all() as Array<{ id: number; ts: number | null }>;
      return rows.filter((r) => r.ts !== null).map((r) => ({ entityId: String(r.id), timestamp: r.ts! }));
    },

    putBulkJob: (job) => gate.run(() => void upsertJob.run({ ...job, finished: job.finished ? 1 : 0, errors: JSON.stringify(job.errors) })),
    async getBulkJob(bulkId) {
      const r = getJob.get(bulkId) as { id: string; user_id: string; created: number; finished: number; matched: number; changed: number; errors: string } | undefined;
      return r && jobOf(r);
    },
    abandonBulkJobs: (error) => gate.run(() => {
      const rows = listUnfinished.all() as Array<{ id: string; user_id: string; created: number; finished: number; matched: number; changed: number; errors: string }>;
      for (const r of rows) upsertJob.run({ ...jobOf(r), bulkId: r.id, userId: r.user_id, finished: 1, changed: 0, errors: JSON.stringify([...JSON.parse(r.errors), error]) });
      return rows.length;
    }),
  };
}

function jobOf(r: { id: string; user_id: string; created: number; finished: number; matched: number; changed: number; errors: string }): BulkJob {
  return { bulkId: r.id, userId: r.user_id, created: r.created, finished: r.finished === 1, matched: r.matched, changed: r.changed, errors: JSON.parse(r.errors) };
}
