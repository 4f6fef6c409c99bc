// What a change to an account means for the connections its user holds open (the live stream,
// MQTT clients), and the signal that tells them at once. The users service announces every
// stored change; a connection does not wait for its next periodic look at the account, so a
// user whose access was narrowed sees nothing more of what they lost, not even for seconds.
import type { UserRecord } from '../../storage/types.js';

/**
 * none: nothing that matters to an open connection; refilter: what the user may see or do
 * changed (rights, objectPermissions): recompute it and carry on; end: the user may not be
 * signed in as before (deleted, blocked or expired, new password or login, the API token the
 * connection signed in with replaced): close, and let the client sign in afresh.
 */
export type AccountChange = 'none' | 'refilter' | 'end';

export function accountChange(before: UserRecord, now: UserRecord | undefined, clock: number, method?: string): AccountChange {
  if (!now) return 'end';
  if (now.authVersion !== before.authVersion || now.status !== before.status || now.isAdmin !== before.isAdmin
    || (now.activeTo !== null && now.activeTo <= clock)
    || (method === 'token' && now.tokenHash !== before.tokenHash)) return 'end';
  if (JSON.stringify(now.permissions) !== JSON.stringify(before.permissions)
    || JSON.stringify(now.objectPermissions) !== JSON.stringify(before.objectPermissions)) return 'refilter';
  return 'none';
}

/**
 * True when a signed-in user's account changed in a way that may change what they may see or
 * whether they may be signed in at all.
 */
export function accountChanged(before: UserRecord, now: UserRecord | undefined, clock: number): boolean {
  return accountChange(before, now, clock) !== 'none';
}

/** Listeners hear the user id and the stored record (undefined once the user is deleted). */
export type AccountListener = (userId: string, now: UserRecord | undefined) => void;

/** Synchronous: when `announce` returns, every listener has acted (refiltered or closed). */
export class AccountSignal {
  private readonly listeners = new Set<AccountListener>();

  /** Returns the function that unsubscribes. */
  subscribe(listener: AccountListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  announce(userId: string, now: UserRecord | undefined): void {
    for (const listener of this.listeners) {
      try {
        listener(userId, now);
      } catch {
        // One connection's failure must not keep the change from the others; each listener
        // logs its own.
      }
    }
  }
}
