// `owner=true` on the incident lists: each incident carries the entity it belongs to, as
// alarm-handling clients of this API family group and title alarms by it (api-extensions.md
// "Incidents"). The record is the shared entity summary (entities/entity-summary.ts), so the
// parents and properties follow the reader's visibility and secret masking like every other
// answer, plus `_id` and `_parents` as those clients read them.
import type { EntityActor } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import { type EntitySummary, entitySummary, parentPaths } from '../entities/entity-summary.js';
import type { IncidentRow } from '../../storage/incidents-types.js';

export interface IncidentOwner extends EntitySummary {
  _id: string;
  _parents: Array<{ path: string[] }>;
}

/** What an owner is found from: any incident record (the API view is one), named by shape so
 * the view can name its `owner` field without the two files importing each other. */
interface OwnedIncident {
  entityId: string;
  reason: IncidentRow['reason'];
  owner?: IncidentOwner;
}

function ownerOf(catalog: Catalog, actor: EntityActor, incident: OwnedIncident): IncidentOwner {
  const entity = catalog.entity(incident.entityId);
  if (!entity) {
    // Deleted since (only readers who see everything are shown such incidents): what the
    // incident recorded, so a client that reads `owner` of every incident keeps working.
    const cause = incident.reason.rootCause;
    const name = cause && cause.entityId === incident.entityId ? cause.entityName : '';
    return { id: incident.entityId, _id: incident.entityId, name, parent_id: [], class_id: null, class_name: null, properties: [], _parents: [] };
  }
  return { ...entitySummary(catalog, actor, entity), _id: entity.id, _parents: parentPaths(catalog, actor, entity).map((path) => ({ path })) };
}

/** The incidents with their owners; one record per entity however many incidents it has. */
export function withOwners<T extends OwnedIncident>(catalog: Catalog, actor: EntityActor, incidents: T[]): T[] {
  const owners = new Map<string, IncidentOwner>();
  return incidents.map((incident) => {
    let owner = owners.get(incident.entityId);
    if (!owner) owners.set(incident.entityId, (owner = ownerOf(catalog, actor, incident)));
    return { ...incident, owner };
  });
}
