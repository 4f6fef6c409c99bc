// The broker's signed-in clients: who each one is (principal) and what it may see (actor,
// recomputed when the entity tree changed), kept in line with its user's account. A change
// announced by the users service reaches the connections at once; what no change announces
// (activeTo passing) is found by a look every ACCOUNT_CHECK_MS. Narrower rights or
// objectPermissions refilter; a block, deletion or new password closes the connection.
import type { Client } from 'aedes';
import type { Logger } from 'pino';
import type { Principal } from '../../modules/auth/service.js';
import type { EntityActor } from '../../modules/catalog/access.js';
import { accountChange } from '../../modules/users/account-changed.js';
import { effectiveRights, type UsersService } from '../../modules/users/service.js';
import type { UserRecord } from '../../storage/types.js';

/** How often connected clients' accounts are looked at (an account past activeTo is cut off within this). */
export const ACCOUNT_CHECK_MS = 5_000;

export interface Session {
  /** Replaced when the account changes (refilter). */
  principal: Principal;
  actor: EntityActor;
  /** The graph version the actor's visibility was computed at. */
  version: number;
}

/** The part of a client the sessions touch (an aedes Client fits). */
export type SessionClient = Pick<Client, 'id' | 'close'>;

export class ClientSessions<C extends SessionClient = Client> {
  private readonly sessions = new WeakMap<C, Session>();
  /** Signed-in clients, for the account check. */
  private readonly signedIn = new Set<C>();
  private timer: NodeJS.Timeout | undefined;
  private unfollow: (() => void) | undefined;
  readonly counts = { accountChanged: 0, accountRefiltered: 0 };

  constructor(private readonly deps: {
    actorOf(principal: Principal): EntityActor;
    /** The entity tree's version: an actor computed at another one is recomputed. */
    graphVersion(): number;
    clock: () => number;
    log: Logger;
    users?: Pick<UsersService, 'getForAuth' | 'onAccountChange'>;
  }) {}

  /** Follows account changes and looks at accounts every `everyMs` (when there is a users service). */
  start(everyMs = ACCOUNT_CHECK_MS): void {
    const { users } = this.deps;
    if (!users) return;
    this.timer = setInterval(() => void this.checkAccounts(), everyMs).unref();
    this.unfollow = users.onAccountChange((userId, now) => {
      for (const client of [...this.signedIn]) {
        const s = this.sessions.get(client);
        if (s && s.principal.user.id === userId) this.follow(client, s, now);
      }
    });
  }

  stop(): void {
    clearInterval(this.timer);
    this.unfollow?.();
  }

  /** A client signed in; `onClose` is how to hear that its connection went. */
  add(client: C, principal: Principal, connected: boolean, onClose: (listener: () => void) => void): void {
    this.sessions.set(client, { principal, actor: this.deps.actorOf(principal), version: this.deps.graphVersion() });
    // On the socket, not clientDisconnect: a client that closes while its sign-in is still
    // being checked is never registered by aedes, so that event never comes for it.
    if (connected) {
      this.signedIn.add(client);
      onClose(() => this.signedIn.delete(client));
    }
  }

  get(client: C): Session | undefined {
    return this.sessions.get(client);
  }

  /**
   * The client's actor, recomputed when the entity tree changed since (objects moved, deleted).
   * Undefined (so: refused) if that fails: the hooks run inside aedes' socket handling, where
   * an exception would escape into the process.
   */
  actorFor(client: C): EntityActor | undefined {
    const s = this.sessions.get(client);
    if (!s) return undefined;
    const version = this.deps.graphVersion();
    if (s.version !== version) {
      try {
        s.actor = this.deps.actorOf(s.principal);
        s.version = version;
      } catch (err) {
        this.deps.log.error({ err, clientId: client.id }, 'computing an MQTT client\'s visibility failed');
        return undefined;
      }
    }
    return s.actor;
  }

  /** Looks at every signed-in client's account as stored now. */
  async checkAccounts(): Promise<void> {
    for (const client of [...this.signedIn]) {
      const s = this.sessions.get(client);
      if (!s) continue;
      try {
        this.follow(client, s, await this.deps.users!.getForAuth(s.principal.user.id));
      } catch (err) {
        this.deps.log.error({ err, clientId: client.id }, 'checking an MQTT client\'s account failed');
      }
    }
  }

  /** Brings a client in line with its user's account as stored now. */
  private follow(client: C, s: Session, now: UserRecord | undefined): void {
    const change = accountChange(s.principal.user, now, this.deps.clock(), s.principal.method);
    if (change === 'end') {
      this.counts.accountChanged++;
      this.signedIn.delete(client);
      client.close();
    } else if (change === 'refilter') {
      this.counts.accountRefiltered++;
      s.principal = { ...s.principal, user: now!, rights: effectiveRights(now!) };
      // Recomputed at the next use (actorFor): the graph version no longer matches.
      s.version = -1;
    }
  }
}
