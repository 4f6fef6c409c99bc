// The catalog snapshot at start on PostgreSQL: one REPEATABLE READ transaction (every page
// sees the same moment, as SQLite's single synchronous read does), the large tables read in
// keyset pages in id order, each row handed on as soon as it is built. An entity's parents
// and tags come with its row (array_agg in the page's query), so no map of every edge is
// held while the entities stream by.
import type {
  CatalogRowVisitor, CatalogSnapshot, ClassPropRow, ClassRow, ClassSettingKind, ClassSettingRow, LinkRow, ObjectRow, PropRow, SettingKind, SettingRow, StateRow, TagRow,
} from '../catalog-types.js';
import { readCounters } from './catalog-ids.js';
import type { PgDb, PgQueryable } from './pg-db.js';

/** Rows per page: a few MB of result at most, and few round trips for 100,000s of rows. */
const PAGE = 5000;
/** One shared empty list for the many rows with no parents, tags or operations (lists are never changed in place). */
const NONE: string[] = Object.freeze([]) as unknown as string[];
const str = (v: number | null) => (v === null ? null : String(v));

interface EntityDbRow {
  id: number; kind: number; name: string; class_id: number | null; state_id: number; owner_id: string | null;
  client_data: string; discovery_id: string | null; source: number | null; target: number | null;
  operations: string; created: number; updated: number; parents: string[] | null; tags: string[] | null;
}

const ENTITY_PAGE = `SELECT e.*,
    (SELECT array_agg(p.parent_id::text ORDER BY p.position) FROM object_parents p WHERE p.child_id = e.id) AS parents,
    (SELECT array_agg(t.tag_id::text ORDER BY t.position) FROM entity_tags t WHERE t.entity_id = e.id) AS tags
  FROM entities e WHERE e.id > $1 ORDER BY e.id LIMIT $2`;
const PROP_PAGE = 'SELECT * FROM entity_props WHERE id > $1 ORDER BY id LIMIT $2';

/** Reads a table page by page in id order; `each` takes every row. */
async function pages<R extends { id: number }>(q: PgQueryable, sql: string, each: (row: R) => void): Promise<void> {
  let after = 0;
  for (;;) {
    const rows = await q.rows<R>(sql, [after, PAGE]);
    for (const r of rows) each(r);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

export function loadCatalog(db: PgDb, visitor?: CatalogRowVisitor): Promise<CatalogSnapshot> {
  return db.tx(async (q) => {
    const objects: ObjectRow[] = [];
    const links: LinkRow[] = [];
    const props: PropRow[] = [];
    const visit: CatalogRowVisitor = visitor ?? { object: (r) => objects.push(r), link: (r) => links.push(r), prop: (r) => props.push(r) };
    // Rows are built in their final shape in one step: at 100,000s of rows, a spread copy
    // per row is garbage the loader would pay for.
    await pages<EntityDbRow>(q, ENTITY_PAGE, (r) => {
      if (r.kind === 1) {
        visit.object({
          id: String(r.id), name: r.name, class_id: str(r.class_id), state_id: r.state_id, owner_id: r.owner_id, client_data: r.client_data,
          discovery_id: r.discovery_id, parent_id: r.parents ?? NONE, tags: r.tags ?? NONE, created: r.created, updated: r.updated,
        });
      } else {
        visit.link({
          id: String(r.id), name: r.name, source: String(r.source), target: String(r.target), class_id: str(r.class_id), state_id: r.state_id,
          owner_id: r.owner_id, client_data: r.client_data, tags: r.tags ?? NONE, operations: r.operations === '[]' ? NONE : JSON.parse(r.operations),
          created: r.created, updated: r.updated,
        });
      }
    });
    await pages<Omit<PropRow, 'id' | 'entity_id'> & { id: number; entity_id: number }>(q, PROP_PAGE, (p) => {
      visit.prop({ id: String(p.id), entity_id: String(p.entity_id), name: p.name, value: p.value, type_id: p.type_id, created: p.created, updated: p.updated });
    });
    const settings = (await q.rows<{ entity_id: number; kind: SettingKind; value: string; updated: number }>('SELECT * FROM entity_settings ORDER BY entity_id, kind'))
      .map((s): SettingRow => ({ entity_id: String(s.entity_id), kind: s.kind, value: JSON.parse(s.value), updated: s.updated }));
    const tags = (await q.rows<TagRow & { id: number }>('SELECT * FROM tags ORDER BY id')).map((t) => ({ ...t, id: String(t.id) }));
    const classes = (await q.rows<{ id: number; built_in: number } & Omit<ClassRow, 'id' | 'builtIn'>>('SELECT * FROM classes ORDER BY id'))
      .map(({ built_in, ...c }) => ({ ...c, id: String(c.id), builtIn: built_in === 1 }));
    const states = (await q.rows<{ built_in: number } & Omit<StateRow, 'builtIn'>>('SELECT * FROM states ORDER BY id'))
      .map(({ built_in, ...s }) => ({ ...s, builtIn: built_in === 1 }));
    const classSettings = (await q.rows<{ class_id: number; kind: ClassSettingKind; value: string; updated: number }>('SELECT * FROM class_settings ORDER BY class_id, kind'))
      .map((s): ClassSettingRow => ({ class_id: String(s.class_id), kind: s.kind, value: JSON.parse(s.value), updated: s.updated }));
    const classProps = (await q.rows<Omit<ClassPropRow, 'id' | 'class_id'> & { id: number; class_id: number }>('SELECT * FROM class_props ORDER BY class_id, id'))
      .map((p): ClassPropRow => ({ ...p, id: String(p.id), class_id: String(p.class_id) }));
    return { objects, links, props, settings, tags, classes, states, classSettings, classProps, lastIds: await readCounters(q) };
  }, 'repeatable read');
}
