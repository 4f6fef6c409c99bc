// Applying a catalog write batch on PostgreSQL, inside the batch's transaction. Consecutive
// writes of one kind (a run) become one multi-row statement per table per slice (unnest of
// arrays), so a bulk of 10,000 objects is a handful of round trips, not tens of thousands.
// A run ends where a row repeats (an upsert cannot touch one row twice in a statement), so
// the writes apply in the batch's order, as the SQLite store applies them one by one.
import type { CatalogWrite, LinkRow, ObjectRow, SettingKind } from '../catalog-types.js';
import type { PgQueryable } from './pg-db.js';

/** Rows per statement: large enough to amortise the round trip, small enough to bound a message. */
const SLICE = 2000;

type Op = CatalogWrite['op'];
type Of<O extends Op> = Extract<CatalogWrite, { op: O }>;

/** The key a write's row has within its table (undefined: writes of this kind never conflict in a run). */
function keyOf(w: CatalogWrite): string | undefined {
  switch (w.op) {
    case 'putObject': case 'putLink': return w.row.id;
    case 'putProp': return w.row.id;
    case 'putSetting': return `${w.row.entity_id}/${w.row.kind}`;
    default: return undefined;
  }
}

/** Kinds applied as one statement per slice; the small tables (tags, classes, states) go row by row. */
const BATCHED = new Set<Op>(['putObject', 'putLink', 'deleteEntities', 'putProp', 'deleteProp', 'putSetting', 'deleteSetting', 'audit', 'setStates']);

/** Splits the writes into runs of one kind with no repeated row, at most SLICE long. */
function* runsOf(writes: readonly CatalogWrite[]): Generator<CatalogWrite[]> {
  let run: CatalogWrite[] = [];
  let keys = new Set<string>();
  for (const w of writes) {
    const key = keyOf(w);
    const fits = run.length > 0 && run[0]!.op === w.op && BATCHED.has(w.op) && run.length < SLICE && (key === undefined || !keys.has(key));
    if (!fits && run.length > 0) {
      yield run;
      run = [];
      keys = new Set();
    }
    run.push(w);
    if (key !== undefined) keys.add(key);
  }
  if (run.length > 0) yield run;
}

const num = (v: string | null) => (v === null ? null : Number(v));
const json = (v: unknown) => (v === undefined ? null : JSON.stringify(v));

const UPSERT_ENTITIES = `INSERT INTO entities (id, kind, name, class_id, state_id, owner_id, client_data, discovery_id, source, target, operations, created, updated)
  SELECT * FROM unnest($1::bigint[], $2::int[], $3::text[], $4::bigint[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::bigint[],
    $11::text[], $12::bigint[], $13::bigint[])
  ON CONFLICT (id) DO UPDATE SET name = excluded.name, class_id = excluded.class_id, state_id = excluded.state_id,
    owner_id = excluded.owner_id, client_data = excluded.client_data, discovery_id = excluded.discovery_id,
    source = excluded.source, target = excluded.target, operations = excluded.operations, updated = excluded.updated`;

async function putEntities(q: PgQueryable, kind: 1 | 2, writes: Array<Of<'putObject'> | Of<'putLink'>>): Promise<void> {
  const cols: unknown[][] = Array.from({ length: 13 }, () => []);
  for (const w of writes) {
    const row = w.row;
    const link = kind === 2 ? (row as LinkRow) : undefined;
    const values = [Number(row.id), kind, row.name, num(row.class_id), row.state_id, row.owner_id, row.client_data,
      kind === 1 ? (row as ObjectRow).discovery_id : null, link ? Number(link.source) : null, link ? Number(link.target) : null,
      JSON.stringify(link?.operations ?? []), row.created, row.updated];
    values.forEach((v, i) => cols[i]!.push(v));
  }
  await q.query(UPSERT_ENTITIES, cols);
  // Parent edges and tags: replaced whole for the rows whose write says so (the default).
  const withParents = kind === 1 ? (writes as Array<Of<'putObject'>>).filter((w) => w.parents ?? true) : [];
  await replaceEdges(q, 'object_parents', 'child_id', 'parent_id', withParents.map((w) => [w.row.id, w.row.parent_id]));
  const withTags = writes.filter((w) => w.tags ?? true);
  await replaceEdges(q, 'entity_tags', 'entity_id', 'tag_id', withTags.map((w) => [w.row.id, w.row.tags]));
}

async function replaceEdges(q: PgQueryable, table: string, from: string, to: string, lists: Array<[string, readonly string[]]>): Promise<void> {
  if (lists.length === 0) return;
  await q.query(`DELETE FROM ${table} WHERE ${from} = ANY($1::bigint[])`, [lists.map(([id]) => Number(id))]);
  const a: number[] = [];
  const b: number[] = [];
  const pos: number[] = [];
  for (const [id, targets] of lists) targets.forEach((t, i) => (a.push(Number(id)), b.push(Number(t)), pos.push(i)));
  if (a.length > 0) {
    await q.query(`INSERT INTO ${table} (${from}, ${to}, position) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[])`, [a, b, pos]);
  }
}

/** Applies one run (see runsOf). */
async function applyRun(q: PgQueryable, run: CatalogWrite[]): Promise<void> {
  const first = run[0]!;
  switch (first.op) {
    case 'putObject': return putEntities(q, 1, run as Array<Of<'putObject'>>);
    case 'putLink': return putEntities(q, 2, run as Array<Of<'putLink'>>);
    case 'deleteEntities':
      await q.query('DELETE FROM entities WHERE id = ANY($1::bigint[])', [(run as Array<Of<'deleteEntities'>>).flatMap((w) => w.ids.map(Number))]);
      return;
    case 'putProp': {
      const rows = (run as Array<Of<'putProp'>>).map((w) => w.row);
      await q.query(`INSERT INTO entity_props (id, entity_id, name, value, type_id, created, updated)
        SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::int[], $6::bigint[], $7::bigint[])
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, value = excluded.value, type_id = excluded.type_id, updated = excluded.updated`, [
        rows.map((r) => Number(r.id)), rows.map((r) => Number(r.entity_id)), rows.map((r) => r.name), rows.map((r) => r.value),
        rows.map((r) => r.type_id), rows.map((r) => r.created), rows.map((r) => r.updated),
      ]);
      return;
    }
    case 'deleteProp':
      await q.query('DELETE FROM entity_props WHERE id = ANY($1::bigint[])', [(run as Array<Of<'deleteProp'>>).map((w) => Number(w.id))]);
      return;
    case 'putSetting': {
      const rows = (run as Array<Of<'putSetting'>>).map((w) => w.row);
      await q.query(`INSERT INTO entity_settings (entity_id, kind, value, updated) SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[])
        ON CONFLICT (entity_id, kind) DO UPDATE SET value = excluded.value, updated = excluded.updated`, [
        rows.map((r) => Number(r.entity_id)), rows.map((r) => r.kind), rows.map((r) => JSON.stringify(r.value)), rows.map((r) => r.updated),
      ]);
      return;
    }
    case 'deleteSetting': {
      const ws = run as Array<Of<'deleteSetting'>>;
      await q.query('DELETE FROM entity_settings WHERE (entity_id, kind) IN (SELECT * FROM unnest($1::bigint[], $2::text[]))',
        [ws.map((w) => Number(w.entityId)), ws.map((w) => w.kind as SettingKind)]);
      return;
    }
    case 'audit': {
      const rs = (run as Array<Of<'audit'>>).map((w) => w.record);
      // WITH ORDINALITY ... ORDER BY: ids follow the batch's order.
      await q.query(`INSERT INTO audit_log (timestamp, user_id, action, resource, resource_id, entity_id, before, after)
        SELECT t, u, a, r, ri, e, b, af FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[])
        WITH ORDINALITY AS x(t, u, a, r, ri, e, b, af, n) ORDER BY n`, [
        rs.map((r) => r.timestamp), rs.map((r) => r.userId), rs.map((r) => r.action), rs.map((r) => r.resource), rs.map((r) => r.resourceId),
        rs.map((r) => num(r.entityId)), rs.map((r) => json(r.before)), rs.map((r) => json(r.after)),
      ]);
      return;
    }
    case 'setStates': return setStates(q, run as Array<Of<'setStates'>>);
    default:
      for (const w of run) await applySmall(q, w);
  }
}

async function setStates(q: PgQueryable, run: Array<Of<'setStates'>>): Promise<void> {
  const changes = run.flatMap((w) => w.changes);
  if (changes.length > 0) {
    // The last change of an entity is its shown state (an UPDATE ... FROM takes one match, any).
    const shown = new Map(changes.map((c) => [Number(c.entityId), c.stateId]));
    await q.query('UPDATE entities SET state_id = u.s FROM unnest($1::bigint[], $2::bigint[]) AS u(id, s) WHERE entities.id = u.id',
      [[...shown.keys()], [...shown.values()]]);
    await q.query(`INSERT INTO state_history (entity_id, state_id, previous_state_id, timestamp, reason)
      SELECT e, s, p, t, r FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[]) WITH ORDINALITY AS x(e, s, p, t, r, n) ORDER BY n`, [
      changes.map((c) => Number(c.entityId)), changes.map((c) => c.stateId), changes.map((c) => c.previousStateId),
      changes.map((c) => c.timestamp), changes.map((c) => JSON.stringify(c.reason)),
    ]);
  }
  const own = [...new Map(run.flatMap((w) => w.own).map((o) => [Number(o.entity_id), o])).values()];
  if (own.length > 0) {
    await q.query(`INSERT INTO entity_states (entity_id, auto_state, manual_state, data_at) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[])
      ON CONFLICT (entity_id) DO UPDATE SET auto_state = excluded.auto_state, manual_state = excluded.manual_state, data_at = excluded.data_at`, [
      own.map((o) => Number(o.entity_id)), own.map((o) => o.auto_state), own.map((o) => o.manual_state), own.map((o) => o.data_at),
    ]);
  }
}

/** Tags, classes and states: small tables written rarely, one statement per write. */
async function applySmall(q: PgQueryable, w: CatalogWrite): Promise<void> {
  switch (w.op) {
    case 'putTag':
      await q.query(`INSERT INTO tags (id, name, created, updated) VALUES ($1, $2, $3, $4)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, updated = excluded.updated`, [Number(w.row.id), w.row.name, w.row.created, w.row.updated]);
      return;
    case 'deleteTag':
      await q.query('DELETE FROM tags WHERE id = $1', [Number(w.id)]);
      return;
    case 'putClass':
      await q.query(`INSERT INTO classes (id, name, description, icon, built_in, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, description = excluded.description, icon = excluded.icon, updated = excluded.updated`,
      [Number(w.row.id), w.row.name, w.row.description, w.row.icon, w.row.builtIn ? 1 : 0, w.row.created, w.row.updated]);
      return;
    case 'deleteClass':
      await q.query('DELETE FROM classes WHERE id = $1', [Number(w.id)]);
      return;
    case 'putState':
      await q.query(`INSERT INTO states (id, name, priority, color, built_in, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, priority = excluded.priority, color = excluded.color, updated = excluded.updated`,
      [w.row.id, w.row.name, w.row.priority, w.row.color, w.row.builtIn ? 1 : 0, w.row.created, w.row.updated]);
      return;
    default:
      throw new Error(`not a small-table write: ${w.op}`);
  }
}

/** Applies every write of the batch, in order, on the transaction's connection. */
export async function applyWrites(q: PgQueryable, writes: readonly CatalogWrite[]): Promise<void> {
  for (const run of runsOf(writes)) await applyRun(q, run);
}
