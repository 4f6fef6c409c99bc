// The catalog's in-memory records of objects and links, and how a stored row becomes one.
import type { LinkRow, ObjectRow, PropRow } from '../../storage/catalog-types.js';

/** An entity as held in memory: its row plus its properties (kept in id order). */
export type MemObject = ObjectRow & { readonly entityType: 1; properties: PropRow[] };
export type MemLink = LinkRow & { readonly entityType: 2; properties: PropRow[] };
export type MemEntity = MemObject | MemLink;

/** A record in one allocation with every field in place (V8 keeps them in the object itself). */
export function memObject(r: ObjectRow, properties: PropRow[]): MemObject {
  return {
    id: r.id, entityType: 1, name: r.name, class_id: r.class_id, state_id: r.state_id, owner_id: r.owner_id, client_data: r.client_data,
    discovery_id: r.discovery_id, parent_id: r.parent_id, tags: r.tags, created: r.created, updated: r.updated, properties,
  };
}

export function memLink(r: LinkRow, properties: PropRow[]): MemLink {
  return {
    id: r.id, entityType: 2, name: r.name, source: r.source, target: r.target, class_id: r.class_id, state_id: r.state_id, owner_id: r.owner_id,
    client_data: r.client_data, tags: r.tags, operations: r.operations, created: r.created, updated: r.updated, properties,
  };
}
