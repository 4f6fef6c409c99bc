// Applying a catalog write batch on PostgreSQL, inside the batch's transaction. Writes are
// gathered per kind and each kind's writes go as one multi-row statement per table (unnest of
// arrays), so a bulk of 10,000 objects is a handful of round trips, not tens of thousands.
// Gathering reorders writes of different kinds; it is stopped (what is gathered is applied
// first) wherever that could change the outcome: see Planner.
import type { CatalogWrite, LinkRow, ObjectRow, SettingKind } from '../catalog-types.js';
import type { PgQueryable } from './pg-db.js';

/** Writes gathered at most before they are applied: bounds a statement's size. */
const SLICE = 2000;

type Op = CatalogWrite['op'];
type Of<O extends Op> = Extract<CatalogWrite, { op: O }>;

/**
 * The order gathered kinds are applied in. Entities come before what refers to them (parent
 * edges, links, properties, settings, states); deletions before puts of their kind.
 */
const ORDER: Partial<Record<Op, number>> = {
  deleteEntities: 0, putObject: 1, putLink: 2, deleteProp: 3, putProp: 4, deleteSetting: 5, putSetting: 6, setStates: 7, audit: 8,
};
const KINDS = (Object.keys(ORDER) as Op[]).sort((a, b) => ORDER[a]! - ORDER[b]!);

/** The rows a write touches or refers to (entity 'e', property 'p', setting 's', tag 't', class 'c'). */
function keysOf(w: CatalogWrite): string[] {
  switch (w.op) {
    case 'putObject': return [`e${w.row.id}`, ...w.row.parent_id.map((p) => `e${p}`), ...w.row.tags.map((t) => `t${t}`), `c${w.row.class_id}`];
    case 'putLink': return [`e${w.row.id}`, `e${w.row.source}`, `e${w.row.target}`, ...w.row.tags.map((t) => `t${t}`), `c${w.row.class_id}`];
    case 'deleteEntities': return w.ids.map((id) => `e${id}`);
    case 'putProp': return [`p${w.row.id}`, `e${w.row.entity_id}`];
    case 'deleteProp': return [`p${w.id}`];
    case 'putSetting': return [`s${w.row.entity_id}/${w.row.kind}`, `e${w.row.entity_id}`];
    case 'deleteSetting': return [`s${w.entityId}/${w.kind}`];
    case 'setStates': return [...w.changes.map((c) => `e${c.entityId}`), ...w.own.map((o) => `e${o.entity_id}`)];
    default: return [];
  }
}

/** The row a put writes: one statement's upsert may not touch a row twice. */
function rowOf(w: CatalogWrite): string | undefined {
  switch (w.op) {
    case 'putObject': case 'putLink': case 'putProp': return w.row.id;
    case 'putSetting': return `${w.row.entity_id}/${w.row.kind}`;
    default: return undefined;
  }
}

/**
 * Gathers writes per kind. A write is applied out of the batch's order only where no earlier
 * gathered write it shares a row with comes after it in ORDER; otherwise (and when a row
 * repeats within a kind, and around the rare writes of tags, classes and states) what is
 * gathered is applied first. So every two writes that touch one row apply in the batch's
 * order, as the SQLite store applies them one by one; writes that could only have failed there
 * (a property before its entity) may succeed here.
 */
class Planner {
  private readonly gathered = new Map<Op, CatalogWrite[]>();
  /** Per row key: the highest ORDER among gathered writes touching it. */
  private readonly latest = new Map<string, number>();
  private readonly rows = new Map<Op, Set<string>>();
  private size = 0;

  constructor(private readonly q: PgQueryable) {}

  async add(w: CatalogWrite): Promise<void> {
    const order = ORDER[w.op];
    if (order === undefined) {
      await this.flush();
      return applySmall(this.q, w);
    }
    const keys = keysOf(w);
    const row = rowOf(w);
    const rows = this.rows.get(w.op);
    if ((row !== undefined && rows?.has(row)) || keys.some((k) => (this.latest.get(k) ?? -1) > order)) await this.flush();
    let list = this.gathered.get(w.op);
    if (!list) this.gathered.set(w.op, (list = []));
    list.push(w);
    for (const k of keys) if ((this.latest.get(k) ?? -1) < order) this.latest.set(k, order);
    if (row !== undefined) {
      let set = this.rows.get(w.op);
      if (!set) this.rows.set(w.op, (set = new Set()));
      set.add(row);
    }
    if (++this.size >= SLICE) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.size === 0) return;
    const gathered = KINDS.map((op) => this.gathered.get(op)).filter((l): l is CatalogWrite[] => l !== undefined && l.length > 0);
    this.gathered.clear();
    this.latest.clear();
    this.rows.clear();
    this.size = 0;
    for (const list of gathered) await applyRun(this.q, list);
  }
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

/** Applies the gathered writes of one kind. */
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
      throw new Error(`not a gathered write: ${first.op}`);
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

/** Tags, classes (with their templates) and states: small tables written rarely, one statement per write. */
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
    case 'putClassSetting':
      await q.query(`INSERT INTO class_settings (class_id, kind, value, updated) VALUES ($1, $2, $3, $4)
        ON CONFLICT (class_id, kind) DO UPDATE SET value = excluded.value, updated = excluded.updated`,
      [Number(w.row.class_id), w.row.kind, JSON.stringify(w.row.value), w.row.updated]);
      return;
    case 'deleteClassSetting':
      await q.query('DELETE FROM class_settings WHERE class_id = $1 AND kind = $2', [Number(w.classId), w.kind]);
      return;
    case 'putClassProp':
      await q.query(`INSERT INTO class_props (id, class_id, name, value, type_id, created, updated) VALUES ($1, $2, $3, $4, $5, $6, $7)
        ON CONFLICT (id) DO UPDATE SET name = excluded.name, value = excluded.value, type_id = excluded.type_id, updated = excluded.updated`,
      [Number(w.row.id), Number(w.row.class_id), w.row.name, w.row.value, w.row.type_id, w.row.created, w.row.updated]);
      return;
    case 'deleteClassProp':
      await q.query('DELETE FROM class_props WHERE id = $1', [Number(w.id)]);
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
  const planner = new Planner(q);
  for (const w of writes) await planner.add(w);
  await planner.flush();
}
