// Who may send measurements to an entity (api-extensions.md "Users": a user without rights is
// read-only, measurements included). `push-data` is for device accounts that only push; an
// operator who may modify the entity (its family's modify or manage right, as for every other
// change of it) may push too. One table, read by the routes' declarations and by the stat
// service, which checks each entity by its kind (/entities/:id/stat and POST /stat mix kinds).
import { requireAnyRight, type EntityActor } from '../catalog/access.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { Right } from '../users/rights.js';

export const OBJECT_PUSH_RIGHTS: readonly Right[] = ['push-data', 'modify-objects', 'manage-objects'];
export const LINK_PUSH_RIGHTS: readonly Right[] = ['push-data', 'modify-links', 'manage-links'];
/** The gate of routes whose entities may be of either kind; each entity is checked again by kind. */
export const ANY_PUSH_RIGHTS: readonly Right[] = [...new Set([...OBJECT_PUSH_RIGHTS, ...LINK_PUSH_RIGHTS])];

export const pushRightsFor = (entity: Pick<MemEntity, 'entityType'>): readonly Right[] => (entity.entityType === 1 ? OBJECT_PUSH_RIGHTS : LINK_PUSH_RIGHTS);

/** True when the actor holds a right that lets it push to the entity (visibility is checked apart). */
export const mayPush = (actor: EntityActor, entity: Pick<MemEntity, 'entityType'>): boolean => pushRightsFor(entity).some((r) => actor.rights.has(r));

/** Throws 403 naming the rights when the actor may not push to the entity. */
export function requirePushRight(actor: EntityActor, entity: Pick<MemEntity, 'entityType'>): void {
  requireAnyRight(actor, ...pushRightsFor(entity));
}
