// Entity records as the API shows them, built from the catalog in memory. Link end names and
// object paths are computed at read time, so they are current the moment an object is renamed.
import { ROOT_ID } from '../../core/entity-graph.js';
import { SEE_ALL } from '../../core/visibility.js';
import type { EntityActor } from '../catalog/access.js';
import type { Catalog, MemEntity, MemLink, MemObject } from '../catalog/catalog.js';
import { entityFacts } from '../catalog/entity-facts.js';
import { redactProperty } from '../../core/secrets/check-secrets.js';
import { readsSecrets } from '../../core/secrets/mask.js';
import type { EffectiveProp } from '../../core/classes/effective.js';

export type Record_ = { id: string; [field: string]: unknown };

/**
 * The field selection of `fields=a,b` (id always in); undefined means the list record (the
 * record of GET /objects and GET /links, without the fields marked FULL_ONLY below). Answers
 * about one entity (and children lists, searches) use FULL_FIELDS when no `fields` is given.
 */
export type FieldSelection = ReadonlySet<string> | undefined;

/** Link records show nothing that depends on who asks. */
const FULL_VIEW: EntityActor = { userId: '', rights: new Set(), visibility: SEE_ALL };

/**
 * Names the server does not know are ignored, not refused: clients of this API family ask for
 * fields of newer servers (api-extensions.md "Objects"). Only known names are kept, so a
 * selection never reaches a field by an odd name.
 */
export function parseFields(fields: string | string[] | undefined): FieldSelection {
  if (fields === undefined) return undefined;
  const list = (Array.isArray(fields) ? fields : fields.split(',')).map((f) => f.trim()).filter((f) => f !== '');
  if (list.length === 0) return undefined;
  return new Set(['id', ...list.filter((f) => ALL_FIELDS.has(f))]);
}

/** The selection, or the full record when none was given. */
export const orFull = (fields: FieldSelection): ReadonlySet<string> => fields ?? FULL_FIELDS;

/**
 * Names from under the root down through first parents, on a path the actor sees whole. The
 * root's own path is its name: an empty path is an empty entry in clients' path pickers.
 */
function pathOf(catalog: Catalog, actor: EntityActor, id: string): string {
  if (id === ROOT_ID) return catalog.object(ROOT_ID)?.name ?? '';
  return catalog.firstVisiblePath(actor.visibility, id)
    .filter((node) => node !== ROOT_ID)
    .map((node) => catalog.object(node)?.name ?? '')
    .join('/');
}

/**
 * A property as records show it: check secrets hidden from readers without
 * manage-service-properties; one inherited from the entity's class says so (and from which).
 */
export function propView(prop: EffectiveProp, actor: EntityActor) {
  const { id, entity_id, name, value, type_id, created, updated } = readsSecrets(actor.rights) ? prop : redactProperty(prop);
  return prop.inherited ? { id, entity_id, name, value, type_id, created, updated, inherited: true, class_id: prop.class_id } : { id, entity_id, name, value, type_id, created, updated };
}

interface ViewContext {
  catalog: Catalog;
  actor: EntityActor;
}

type FieldTable<T> = ReadonlyArray<readonly [field: string, read: (entity: T, ctx: ViewContext) => unknown]>;

const classNameOf = (e: MemEntity, { catalog }: ViewContext) => (e.class_id === null ? null : catalog.classById(e.class_id)?.name ?? null);
/** An entity whose state never changed has been in it since it was created. */
const lastStateUpdate = (e: MemEntity, { catalog }: ViewContext) => entityFacts(catalog).lastStateUpdate(e.id) ?? e.created;
const metricsCache = (e: MemEntity, { catalog }: ViewContext) => entityFacts(catalog).metricNames(e.id);
/** The running maintenance window; absent (undefined) when none. */
const maintenanceOf = (e: MemEntity, { catalog }: ViewContext) => entityFacts(catalog).maintenance(e.id);

/**
 * Object fields in the order records show them. Properties and the FULL_ONLY fields are in
 * records of one object (and children lists, searches, create and change answers), not in the
 * GET /objects list unless asked for.
 */
const OBJECT_VIEW: FieldTable<MemObject> = [
  ['entityType', () => 1],
  ['name', (o) => o.name],
  ['parent_id', (o, { actor }) => (actor.visibility.all ? o.parent_id : o.parent_id.filter((p) => actor.visibility.canRead(p)))],
  ['path', (o, { catalog, actor }) => pathOf(catalog, actor, o.id)],
  ['class_id', (o) => o.class_id],
  ['state_id', (o) => o.state_id],
  ['owner_id', (o) => o.owner_id],
  ['client_data', (o) => o.client_data],
  ['discovery_id', (o) => o.discovery_id],
  ['tags', (o) => o.tags],
  // Effective: the class's properties the object does not override come after its own.
  ['properties', (o, { catalog, actor }) => catalog.effectiveProps(o).map((p) => propView(p, actor))],
  ['created', (o) => o.created],
  ['updated', (o) => o.updated],
  ['class_name', classNameOf],
  ['child_ids', (o, { catalog, actor }) => (actor.visibility.all ? [...catalog.childrenOf(o.id)] : [...catalog.childrenOf(o.id)].filter((c) => actor.visibility.canRead(c)))],
  ['last_state_update', lastStateUpdate],
  ['metrics_cache', metricsCache],
  ['maintenance', maintenanceOf],
];

/** Link fields: the base document's link record, then class, properties and created. */
const LINK_VIEW: FieldTable<MemLink> = [
  ['entityType', () => 2],
  ['name', (l) => l.name],
  ['source', (l) => l.source],
  ['target', (l) => l.target],
  ['source_name', (l, { catalog }) => catalog.object(l.source)?.name ?? ''],
  ['target_name', (l, { catalog }) => catalog.object(l.target)?.name ?? ''],
  ['class_id', (l) => l.class_id],
  ['state_id', (l) => l.state_id],
  ['client_data', (l) => l.client_data],
  ['tags', (l) => l.tags],
  ['operations', (l) => l.operations],
  ['owner_id', (l) => l.owner_id],
  ['properties', (l, { catalog, actor }) => catalog.effectiveProps(l).map((p) => propView(p, actor))],
  ['created', (l) => l.created],
  ['updated', (l) => l.updated],
  ['class_name', classNameOf],
  ['last_state_update', lastStateUpdate],
  ['metrics_cache', metricsCache],
  ['maintenance', maintenanceOf],
];

/** Fields only full records show unless `fields` names them. */
const FULL_ONLY = new Set(['properties', 'class_name', 'child_ids', 'last_state_update', 'metrics_cache']);

function view<T extends MemEntity>(table: FieldTable<T>, entity: T, ctx: ViewContext, fields: FieldSelection): Record_ {
  const out: Record_ = { id: entity.id };
  for (const [field, read] of table) {
    if (!(fields ? fields.has(field) : !FULL_ONLY.has(field))) continue;
    // A field with no value now (maintenance) is left out rather than shown empty.
    const value = read(entity, ctx);
    if (value !== undefined) out[field] = value;
  }
  return out;
}

export function objectView(catalog: Catalog, actor: EntityActor, o: MemObject, fields: FieldSelection): Record_ {
  return view(OBJECT_VIEW, o, { catalog, actor }, fields);
}

/** `actor` only decides what properties show (links are not filtered by visibility here). */
export function linkView(catalog: Catalog, l: MemLink, fields: FieldSelection, actor: EntityActor = FULL_VIEW): Record_ {
  return view(LINK_VIEW, l, { catalog, actor }, fields);
}

const ALL_FIELDS: ReadonlySet<string> = new Set(['id', ...OBJECT_VIEW.map(([f]) => f), ...LINK_VIEW.map(([f]) => f)]);
/** Every field of either kind: a full record of an object or a link. */
export const FULL_FIELDS = ALL_FIELDS;

export function entityView(catalog: Catalog, actor: EntityActor, e: MemEntity, fields: FieldSelection): Record_ {
  return e.entityType === 1 ? objectView(catalog, actor, e, fields) : linkView(catalog, e, fields, actor);
}
