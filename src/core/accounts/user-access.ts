// What an account record says about access, read the same way by sign-in (auth), the users
// service, the agents and the live listeners: whether it is blocked now, and its rights. Kept
// below the modules so auth and users need not import each other for it.
import { RIGHTS, isRight, type Right } from './rights.js';

/** The fields of a stored user record (storage/types.ts UserRecord) these rules read. */
export interface AccountFlags {
  status: number;
  activeTo: number | null;
  isAdmin: boolean;
  permissions: readonly string[];
}

export const STATUS_ACTIVE = 2;
export const STATUS_BLOCKED = 3;

export function isBlocked(user: AccountFlags, now: number): boolean {
  return user.status === STATUS_BLOCKED || (user.activeTo !== null && now > user.activeTo);
}

const rightsOf = new WeakMap<AccountFlags, ReadonlySet<Right>>();

/** The rights a user holds (all of them for an admin); computed once per cached record. */
export function effectiveRights(user: AccountFlags): ReadonlySet<Right> {
  let rights = rightsOf.get(user);
  if (!rights) rightsOf.set(user, (rights = new Set(user.isAdmin ? RIGHTS : user.permissions.filter(isRight))));
  return rights;
}
