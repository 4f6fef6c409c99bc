import type { UserRecord } from '../../storage/types.js';

/**
 * True when a signed-in user's account changed in a way that may change what they may see or
 * whether they may be signed in at all. Long-lived connections (the live stream, MQTT clients)
 * then end, and the client reconnects and is authenticated afresh.
 */
export function accountChanged(before: UserRecord, now: UserRecord | undefined, clock: number): boolean {
  if (!now) return true;
  return now.authVersion !== before.authVersion || now.status !== before.status || now.isAdmin !== before.isAdmin
    || (now.activeTo !== null && now.activeTo <= clock)
    || JSON.stringify(now.permissions) !== JSON.stringify(before.permissions)
    || JSON.stringify(now.objectPermissions) !== JSON.stringify(before.objectPermissions);
}
