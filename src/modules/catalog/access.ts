// Who may see and change which entities: the one place every entity route asks. A user's
// visibility is computed from their objectPermissions once per shape of the tree (the graph's
// version) and kept for the next requests; an unrestricted user costs nothing.
import type { ObjectPermissions } from '../../storage/types.js';
import { type Visibility, SEE_ALL } from '../../core/visibility.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { Principal } from '../auth/service.js';
import type { Right } from '../users/rights.js';
import type { Catalog, MemEntity } from './catalog.js';

/** The caller of an entity operation. */
export interface EntityActor {
  userId: string;
  rights: ReadonlySet<Right>;
  visibility: Visibility;
}

const CACHE_SIZE = 256;

export function createAccess(catalog: Catalog) {
  const cache = new Map<string, { version: number; visibility: Visibility }>();

  function visibilityFor(userId: string, list: ObjectPermissions | null): Visibility {
    if (!list) return SEE_ALL;
    const key = `${userId}:${JSON.stringify(list)}`;
    const hit = cache.get(key);
    if (hit && hit.version === catalog.treeVersion) return hit.visibility;
    const visibility = catalog.visibilityOf(list);
    cache.delete(key);
    cache.set(key, { version: catalog.treeVersion, visibility });
    if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return visibility;
  }

  return {
    actorOf(principal: Principal): EntityActor {
      const { user } = principal;
      return { userId: user.id, rights: principal.rights, visibility: user.isAdmin ? SEE_ALL : visibilityFor(user.id, user.objectPermissions) };
    },
  };
}

/** True when the entity is visible: an object by the list, a link by both its ends. */
export function canSee(actor: EntityActor, entity: MemEntity): boolean {
  if (actor.visibility.all) return true;
  return entity.entityType === 1 ? actor.visibility.canRead(entity.id) : actor.visibility.hasLink(entity.source, entity.target);
}

/** True when the actor may change the entity (the root only if their list includes it). */
export function canChange(actor: EntityActor, entity: MemEntity): boolean {
  if (actor.visibility.all) return true;
  return entity.entityType === 1 ? actor.visibility.has(entity.id) : actor.visibility.hasLink(entity.source, entity.target);
}

/**
 * A reason without a `rootCause` the actor may not see: a hidden descendant that moved a
 * visible ancestor's state must stay as absent as it is everywhere else.
 */
export function reasonFor<R extends { code: number; [detail: string]: unknown }>(actor: EntityActor, catalog: Catalog, reason: R): R {
  const cause = reason.rootCause;
  if (actor.visibility.all || typeof cause !== 'object' || cause === null) return reason;
  const id = String((cause as { entityId?: unknown }).entityId);
  const entity = catalog.entity(id);
  if (entity && canSee(actor, entity)) return reason;
  const { rootCause: _hidden, ...rest } = reason;
  return rest as R;
}

/** The 403 of a change that would reach outside the actor's objectPermissions. */
export const outsidePermissions = (what: string) => new AppError('Forbidden', `Forbidden: ${what} is outside your objectPermissions`);

/** Throws 403 naming the first right when the actor holds none of `rights`. */
export function requireAnyRight(actor: EntityActor, ...rights: Right[]): void {
  if (!rights.some((r) => actor.rights.has(r))) throw forbidden(rights.join('" or "'));
}

/** The entity if the actor may see it; a hidden one is as absent (404). */
export function seen<T extends MemEntity>(actor: EntityActor, entity: T | undefined, what: string, id: string): T {
  if (!entity || !canSee(actor, entity)) throw notFound(`${what} ${id}`);
  return entity;
}

export type Access = ReturnType<typeof createAccess>;
