// The short record of an entity that other answers embed: the objects named by
// GET /objects/:id/paths, and the `owner` of an incident (incidents/incident-owner.ts).
// Clients of this API family group and title by it, so it carries the parents and the
// properties, both as the reader may see them: parents they cannot see are left out (as in
// object records), and secrets are masked for readers without manage-service-properties
// exactly as /props and entity records mask them.
import { redactProperty } from '../../core/secrets/check-secrets.js';
import { readsSecrets } from '../../core/secrets/mask.js';
import type { EntityActor } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';

export interface SummaryProperty {
  id: string;
  name: string;
  value: string;
  type_id: number;
}

export interface EntitySummary {
  id: string;
  name: string;
  parent_id: string[];
  class_id: string | null;
  class_name: string | null;
  properties: SummaryProperty[];
}

/** Properties as `[{id, name, value, type_id}]`, check secrets masked for this reader. */
export function summaryProperties(actor: EntityActor, properties: MemEntity['properties']): SummaryProperty[] {
  const clear = readsSecrets(actor.rights);
  return properties.map((p) => {
    const { id, name, value, type_id } = clear ? p : redactProperty(p);
    return { id, name, value, type_id };
  });
}

/**
 * The parents the reader sees: an object's own, or for a link the objects it belongs to (the
 * common parents of its ends, as GET /objects/:id/children/links lists it).
 */
export function visibleParents(catalog: Catalog, actor: EntityActor, e: MemEntity): string[] {
  const parents = e.entityType === 1 ? e.parent_id : catalog.ownersOf(e.id);
  return actor.visibility.all ? [...parents] : parents.filter((p) => actor.visibility.canRead(p));
}

/**
 * The paths above the entity, each as ids from a parent up to the root, through parents the
 * reader sees only: a path through a hidden object is left out whole (core/visibility.ts).
 */
export function parentPaths(catalog: Catalog, actor: EntityActor, e: MemEntity): string[][] {
  const upward = (objectId: string) => catalog.visiblePaths(actor.visibility, objectId).map((path) => [...path].reverse());
  if (e.entityType === 1) return upward(e.id).map((path) => path.slice(1)).filter((path) => path.length > 0);
  return visibleParents(catalog, actor, e).flatMap(upward);
}

/** The summary record of an entity the reader sees (the caller checks that it does). */
export function entitySummary(catalog: Catalog, actor: EntityActor, e: MemEntity): EntitySummary {
  return {
    id: e.id,
    name: e.name,
    parent_id: visibleParents(catalog, actor, e),
    class_id: e.class_id,
    class_name: e.class_id === null ? null : catalog.classById(e.class_id)?.name ?? null,
    properties: summaryProperties(actor, e.properties),
  };
}
