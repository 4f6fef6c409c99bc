// Entity records as the API shows them, built from the catalog in memory. Link end names and
// object paths are computed at read time, so they are current the moment an object is renamed.
import { ROOT_ID } from '../../core/entity-graph.js';
import { badRequest } from '../../http/errors.js';
import type { EntityActor } from '../catalog/access.js';
import type { Catalog, MemEntity, MemLink, MemObject } from '../catalog/catalog.js';

export type Record_ = { id: string; [field: string]: unknown };

const OBJECT_FIELDS = new Set(['id', 'entityType', 'name', 'parent_id', 'path', 'class_id', 'state_id', 'owner_id', 'client_data', 'discovery_id', 'tags', 'properties', 'created', 'updated']);
const LINK_FIELDS = new Set(['id', 'entityType', 'name', 'source', 'target', 'source_name', 'target_name', 'class_id', 'state_id', 'client_data', 'tags', 'operations', 'owner_id', 'properties', 'created', 'updated']);
const ALL_FIELDS = new Set([...OBJECT_FIELDS, ...LINK_FIELDS]);

/** The field selection of `fields=a,b` (id always in); undefined means the default record. */
export type FieldSelection = ReadonlySet<string> | undefined;

export function parseFields(fields: string | string[] | undefined): FieldSelection {
  if (fields === undefined) return undefined;
  const list = (Array.isArray(fields) ? fields : fields.split(',')).map((f) => f.trim()).filter((f) => f !== '');
  if (list.length === 0) return undefined;
  const unknown = list.filter((f) => !ALL_FIELDS.has(f));
  if (unknown.length > 0) throw badRequest(`fields: unknown field ${unknown.join(', ')}; known: ${[...ALL_FIELDS].join(', ')}`);
  return new Set(['id', ...list]);
}

/** Names from the root down through first parents, hidden ancestors left out. */
function pathOf(catalog: Catalog, actor: EntityActor, id: string): string {
  return catalog.graph
    .firstPathTo(id)
    .filter((node) => node !== ROOT_ID && actor.visibility.canRead(node))
    .map((node) => catalog.objects.get(node)?.name ?? '')
    .join('/');
}

const propView = ({ id, entity_id, name, value, type_id, created, updated }: MemEntity['properties'][number]) => ({ id, entity_id, name, value, type_id, created, updated });

export function objectView(catalog: Catalog, actor: EntityActor, o: MemObject, fields: FieldSelection): Record_ {
  const want = (f: string) => (fields ? fields.has(f) : f !== 'properties');
  const out: Record_ = { id: o.id };
  if (want('entityType')) out.entityType = 1;
  if (want('name')) out.name = o.name;
  if (want('parent_id')) out.parent_id = actor.visibility.all ? o.parent_id : o.parent_id.filter((p) => actor.visibility.canRead(p));
  if (want('path')) out.path = pathOf(catalog, actor, o.id);
  if (want('class_id')) out.class_id = o.class_id;
  if (want('state_id')) out.state_id = o.state_id;
  if (want('owner_id')) out.owner_id = o.owner_id;
  if (want('client_data')) out.client_data = o.client_data;
  if (want('discovery_id')) out.discovery_id = o.discovery_id;
  if (want('tags')) out.tags = o.tags;
  if (want('properties')) out.properties = o.properties.map(propView);
  if (want('created')) out.created = o.created;
  if (want('updated')) out.updated = o.updated;
  return out;
}

export function linkView(catalog: Catalog, l: MemLink, fields: FieldSelection): Record_ {
  const want = (f: string) => (fields ? fields.has(f) : f !== 'properties');
  const out: Record_ = { id: l.id };
  if (want('entityType')) out.entityType = 2;
  if (want('name')) out.name = l.name;
  if (want('source')) out.source = l.source;
  if (want('target')) out.target = l.target;
  if (want('source_name')) out.source_name = catalog.objects.get(l.source)?.name ?? '';
  if (want('target_name')) out.target_name = catalog.objects.get(l.target)?.name ?? '';
  if (want('class_id')) out.class_id = l.class_id;
  if (want('state_id')) out.state_id = l.state_id;
  if (want('client_data')) out.client_data = l.client_data;
  if (want('tags')) out.tags = l.tags;
  if (want('operations')) out.operations = l.operations;
  if (want('owner_id')) out.owner_id = l.owner_id;
  if (want('properties')) out.properties = l.properties.map(propView);
  if (want('created')) out.created = l.created;
  if (want('updated')) out.updated = l.updated;
  return out;
}

export function entityView(catalog: Catalog, actor: EntityActor, e: MemEntity, fields: FieldSelection): Record_ {
  return e.entityType === 1 ? objectView(catalog, actor, e, fields) : linkView(catalog, e, fields);
}
