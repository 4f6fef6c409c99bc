// Who a request is, once signed in, and what it presented: the types every part of sign-in
// (and the listeners that authenticate MQTT clients and streams) share.
import type { Right } from '../../core/accounts/rights.js';
import type { SessionRecord, UserRecord } from '../../storage/types.js';
import type { SecuritySource } from '../security-log/events.js';

export type AuthMethod = 'basic' | 'session' | 'token';

/** What a request presented, parsed by the HTTP layer. */
export type Credentials =
  /** `encoded` is the base64 part of the header, decoded only when the cache does not know it. */
  | { kind: 'basic'; encoded: string }
  | { kind: 'token'; token: string }
  | { kind: 'session'; sessionId: string }
  /** Credentials that cannot be read: refused, and logged as a failed sign-in. */
  | { kind: 'malformed'; source: SecuritySource; reason: string };

export interface Principal {
  user: UserRecord;
  rights: ReadonlySet<Right>;
  method: AuthMethod;
  session?: SessionRecord;
}

/**
 * The account reads and writes sign-in needs (the users service provides them, passed in at
 * assembly so that auth does not import users).
 */
export interface AuthAccounts {
  findByLogin(login: string): Promise<UserRecord | undefined>;
  findByTokenHash(hash: string): Promise<UserRecord | undefined>;
  /** The record, possibly from a short-lived cache. */
  getForAuth(id: string): Promise<UserRecord | undefined>;
  /** The cached record only, without I/O. */
  peekForAuth(id: string): UserRecord | undefined;
  setTokenHash(id: string, tokenHash: string | null): Promise<void>;
}
