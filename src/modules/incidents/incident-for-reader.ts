// An incident as one reader may see it. Its cause upstream (a dependency's root cause, in
// `reason.rootCause` and `suppression.rootCause`, and in the actions that record them) may be an
// entity outside the reader's objectPermissions: such a cause is not named to them. The
// reason's rootCause falls back to the incident's own entity (what it named before causes
// upstream existed, and clients read it as an object); a suppression keeps its kind without it.
import type { Catalog } from '../catalog/catalog.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { IncidentView } from './incident-view.js';

type Cause = { entityId: string; entityType: number; entityName: string };

function hiddenCause(actor: EntityActor, catalog: Catalog, cause: unknown, own: string): boolean {
  if (typeof cause !== 'object' || cause === null) return false;
  const id = String((cause as Cause).entityId);
  if (id === own) return false;
  const entity = catalog.entity(id);
  return !entity || !canSee(actor, entity);
}

/** Strips a hidden `rootCause` from a suppression-shaped object (a record's, or an action's details). */
function withoutHiddenCause<T extends { rootCause?: unknown }>(actor: EntityActor, catalog: Catalog, s: T, own: string): T {
  if (!hiddenCause(actor, catalog, s.rootCause, own)) return s;
  const { rootCause: _hidden, ...rest } = s;
  return rest as T;
}

/** The view with causes the reader may not see left out (the same object when none is). */
export function incidentForReader(actor: EntityActor, catalog: Catalog, v: IncidentView): IncidentView {
  if (actor.visibility.all) return v;
  let out = v;
  if (hiddenCause(actor, catalog, v.reason.rootCause, v.entityId)) {
    const own = catalog.entity(v.entityId);
    const rootCause = own ? { entityId: own.id, entityType: own.entityType, entityName: own.name } : { entityId: v.entityId, entityType: v.entityType, entityName: '' };
    out = { ...out, reason: { ...v.reason, rootCause } };
  }
  if (v.suppression) {
    const suppression = withoutHiddenCause(actor, catalog, v.suppression, v.entityId);
    if (suppression !== v.suppression) out = { ...out, suppression };
  }
  return out;
}

/** An action's details as the reader may see them (the suppression recorded, or what it was). */
export function actionDetailsForReader(actor: EntityActor, catalog: Catalog, details: Record<string, unknown>, own: string): Record<string, unknown> {
  if (actor.visibility.all) return details;
  let out = withoutHiddenCause(actor, catalog, details as { rootCause?: unknown }, own) as Record<string, unknown>;
  for (const key of ['suppression', 'was'] as const) {
    const inner = out[key];
    if (typeof inner !== 'object' || inner === null) continue;
    const shown = withoutHiddenCause(actor, catalog, inner as { rootCause?: unknown }, own);
    if (shown !== inner) out = { ...out, [key]: shown };
  }
  return out;
}
