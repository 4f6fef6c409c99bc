// Users: accounts, their rights and object access lists. Keeps a short-lived cache of user
// records by id because every authenticated request needs its caller's record.
import { randomBytes } from 'node:crypto';
import type { ChangePublisher } from '../../core/change-publisher.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { QueryError } from '../../core/safe-query.js';
import { DuplicateKeyError, type Page, type UserChanges, type UserRecord, type UsersStore } from '../../storage/types.js';
import { hashPassword } from '../../core/accounts/password.js';
import { createReauth, type ProofMethod } from './reauth.js';
import { RIGHTS } from '../../core/accounts/rights.js';
import { STATUS_ACTIVE, STATUS_BLOCKED, effectiveRights, isBlocked } from '../../core/accounts/user-access.js';
import type { CreateUserInput, PatchUserInput, UserView } from './schemas.js';
import { compileUserFilter } from './user-filter.js';
import { AccountSignal } from './account-changed.js';

// Where other modules have always found them; defined in core/accounts/user-access.ts.
export { STATUS_ACTIVE, STATUS_BLOCKED, effectiveRights, isBlocked };

/** Who asks for a change: their id and effective rights. */
export interface Actor {
  userId: string;
  rights: ReadonlySet<string>;
  /** The caller's session, when they came with one. */
  sessionIdHash?: string;
  /** How the caller signed in: changing one's own credentials needs the password unless 'basic'. */
  method: ProofMethod;
}

/** Fields a user may change on their own account without `manage-users`. */
const SELF_EDITABLE = new Set(['email', 'language', 'password', 'currentPassword']);

export interface UsersServiceDeps {
  users: UsersStore;
  /** Ends a user's sessions (but `except`), wherever they are cached. */
  endSessions: (userId: string, except?: string) => Promise<void>;
  clock: () => number;
  /** How long a cached user record may be served without re-reading the store. */
  cacheTtlMs?: number;
  /** Tells the other nodes of a cluster that an account changed (they re-read it). */
  feed?: ChangePublisher;
}

/** Change feed topic: an account changed or was deleted (key: the user id). */
export const USER_CHANGED = 'user-changed';

export type UsersService = ReturnType<typeof createUsersService>;

/**
 * Ids are the canonical decimal form only: "4.0" or " 4" would reach user 4 through the
 * database's number conversion while escaping every comparison of id strings (self checks,
 * caches).
 */
const isUserId = (id: string) => /^[1-9][0-9]{0,15}$/.test(id);

export function createUsersService({ users, endSessions, clock, cacheTtlMs = 5000, feed }: UsersServiceDeps) {
  const cache = new Map<string, { user: UserRecord; at: number }>();
  // Open streams and MQTT clients hear of every stored change at once (account-changed.ts).
  const accounts = new AccountSignal();
  const reauth = createReauth(clock);
  const remember = (user: UserRecord) => {
    cache.set(user.id, { user, at: clock() });
    return user;
  };

  const view = (u: UserRecord): UserView => ({
    id: u.id,
    login: u.login,
    email: u.email,
    status: isBlocked(u, clock()) ? STATUS_BLOCKED : STATUS_ACTIVE,
    language: u.language,
    contacts: u.contacts,
    eventFilter: u.eventFilter,
    permissions: u.isAdmin ? [...RIGHTS] : u.permissions,
    ...(u.objectPermissions ? { objectPermissions: u.objectPermissions } : {}),
    activeTo: u.activeTo,
    created: u.created,
    updated: u.updated,
  });

  async function mustGet(id: string): Promise<UserRecord> {
    const user = isUserId(id) ? await users.get(id) : undefined;
    if (!user) throw notFound(`user ${id}`);
    return user;
  }

  async function changeUser(id: string, changes: UserChanges, bumpAuth: boolean): Promise<UserRecord> {
    try {
      const updated = isUserId(id) ? await users.update(id, changes, clock(), bumpAuth) : undefined;
      if (!updated) throw notFound(`user ${id}`);
      remember(updated);
      accounts.announce(id, updated);
      await feed?.publish(USER_CHANGED, id);
      return updated;
    } catch (err) {
      if (err instanceof DuplicateKeyError) throw conflict(`login "${changes.login}" is already taken`);
      throw err;
    }
  }

  // The caller's own record is asked for constantly (UIs poll /users/current): its JSON is
  // kept per cached record, unless its status may change with the clock (activeTo set).
  const viewJsonOf = new WeakMap<UserRecord, string>();
  const viewJson = (u: UserRecord): string => {
    if (u.activeTo !== null) return JSON.stringify(view(u));
    let json = viewJsonOf.get(u);
    if (json === undefined) viewJsonOf.set(u, (json = JSON.stringify(view(u))));
    return json;
  };

  return {
    view,
    /** Hears every stored change of an account (the record after it; undefined: deleted). */
    onAccountChange: (listener: Parameters<AccountSignal['subscribe']>[0]) => accounts.subscribe(listener),
    viewJson,

    /** The cached user record while it is fresh, without I/O (the sign-in fast path). */
    peekForAuth(id: string): UserRecord | undefined {
      const hit = cache.get(id);
      return hit && clock() - hit.at < cacheTtlMs ? hit.user : undefined;
    },

    /** The user record for authentication, served from cache while fresh. */
    async getForAuth(id: string): Promise<UserRecord | undefined> {
      const hit = cache.get(id);
      if (hit && clock() - hit.at < cacheTtlMs) return hit.user;
      const user = await users.get(id);
      if (!user) {
        cache.delete(id);
        return undefined;
      }
      return remember(user);
    },

    findByLogin: (login: string) => users.getByLogin(login),
    findByTokenHash: (hash: string) => users.getByTokenHash(hash),

    async list(page: Page): Promise<UserView[]> {
      return (await users.list(page)).map(view);
    },

    async get(id: string): Promise<UserView> {
      return view(await mustGet(id));
    },

    async create(input: CreateUserInput): Promise<UserView> {
      try {
        const user = await users.create(
          {
            login: input.login,
            email: input.email ?? '',
            status: input.status ?? STATUS_ACTIVE,
            language: input.language ?? 'en',
            contacts: input.contacts ?? [],
            eventFilter: input.eventFilter ?? [],
            permissions: [...new Set(input.permissions ?? [])],
            objectPermissions: input.objectPermissions ?? null,
            activeTo: input.activeTo ?? null,
            isAdmin: false,
            passwordHash: await hashPassword(input.password),
          },
          clock(),
        );
        return view(remember(user));
      } catch (err) {
        if (err instanceof DuplicateKeyError) throw conflict(`login "${input.login}" is already taken`);
        throw err;
      }
    },

    async update(id: string, patch: PatchUserInput, actor: Actor): Promise<UserView> {
      const current = await mustGet(id);
      const isSelf = actor.userId === id;
      if (!actor.rights.has('manage-users')) {
        const before = view(current) as Record<string, unknown>;
        for (const [key, value] of Object.entries(patch)) {
          if (value === undefined || SELF_EDITABLE.has(key)) continue;
          if (JSON.stringify(before[key]) !== JSON.stringify(value)) throw forbidden('manage-users');
        }
      }
      if (isSelf && patch.status === STATUS_BLOCKED) throw conflict('you cannot block your own account');
      // A manager resetting someone else's password needs no proof; one's own (admins too) does.
      if (isSelf && patch.password !== undefined) {
        await reauth.confirm(current, actor.method, patch.currentPassword, 'currentPassword', 'changing your own password');
      }
      const changes: UserChanges = {
        login: patch.login,
        email: patch.email,
        status: patch.status,
        language: patch.language,
        contacts: patch.contacts,
        eventFilter: patch.eventFilter,
        permissions: patch.permissions && [...new Set(patch.permissions)],
        objectPermissions: patch.objectPermissions,
        activeTo: patch.activeTo,
      };
      if (patch.password !== undefined) changes.passwordHash = await hashPassword(patch.password);
      // Cached sign-ins are keyed by login and password: only those two make them stale.
      // (Status, expiry and rights are read from the fresh record on every request.)
      const credentialsChange = patch.password !== undefined || patch.login !== undefined;
      const updated = await changeUser(id, changes, credentialsChange);
      // A new password or a block ends the user's other sessions (a reset after a leak must
      // lock the intruder out); the caller's own session survives changing their password.
      if (isBlocked(updated, clock())) await endSessions(id);
      else if (patch.password !== undefined) await endSessions(id, isSelf ? actor.sessionIdHash : undefined);
      return view(updated);
    },

    async delete(id: string, actor: Actor): Promise<void> {
      if (actor.userId === id) throw conflict('you cannot delete your own account');
      if (!isUserId(id) || !(await users.delete(id))) throw notFound(`user ${id}`);
      cache.delete(id);
      accounts.announce(id, undefined);
      await feed?.publish(USER_CHANGED, id);
    },

    /**
     * Another node changed (or deleted) the account: re-read it, and tell what follows this
     * node's accounts (open streams and MQTT clients of a blocked user close here too).
     */
    async changedElsewhere(id: string): Promise<void> {
      if (!isUserId(id)) return;
      const user = await users.get(id);
      if (user) remember(user);
      else cache.delete(id);
      accounts.announce(id, user);
    },

    async search(filter: unknown, page: Page): Promise<UserView[]> {
      try {
        const matches = compileUserFilter(filter ?? {});
        // Matching may throw QueryError too (sift checks some operands only when testing).
        const found = (await users.all()).map(view).filter(matches);
        return found.slice(page.skip, page.skip + page.limit);
      } catch (err) {
        if (err instanceof QueryError) throw badRequest(err.message);
        throw err;
      }
    },

    /**
     * Before a new API token is made: one's own needs the password (`given`) unless the
     * request came with HTTP Basic; a manager making one for someone else needs none.
     */
    async confirmTokenRequest(id: string, actor: Actor, given: string | undefined): Promise<void> {
      if (actor.userId !== id) return;
      await reauth.confirm(await mustGet(id), actor.method, given, 'password', 'creating your own API token');
    },

    /** Stores (or clears) the hash of the user's API token; the old token stops working. */
    async setTokenHash(id: string, tokenHash: string | null): Promise<void> {
      // Token sign-ins compare the stored hash on every use, so no cache needs dropping.
      await changeUser(id, { tokenHash }, false);
    },

    /**
     * First start: creates the bootstrap admin. Returns the generated password when none was
     * given, so the caller can show it once.
     */
    async ensureBootstrapAdmin(login: string, password?: string): Promise<{ created: boolean; generatedPassword?: string }> {
      // Only the first start creates the admin; a later user of that login (after a rename)
      // is not promoted, or anyone with manage-users could make an admin by restart.
      if (await users.getByLogin(login)) return { created: false };
      // Users exist but not this login (the admin was renamed): do not add a second admin.
      if ((await users.count()) > 0) return { created: false };
      const generated = password ? undefined : randomBytes(12).toString('base64url');
      await users.create(
        {
          login,
          email: '',
          status: STATUS_ACTIVE,
          language: 'en',
          contacts: [],
          eventFilter: [],
          permissions: [...RIGHTS],
          objectPermissions: null,
          activeTo: null,
          isAdmin: true,
          passwordHash: await hashPassword(password ?? generated!),
        },
        clock(),
      );
      return { created: true, generatedPassword: generated };
    },
  };
}
