// Sign-in sessions: opened, found (from a short cache, else the store), expired by idle and
// absolute limits, touched, ended. Session activity is written back at most once a minute
// (per session, not per request): idle expiry is that coarse at worst, against an idle limit
// of days by default, and well within it for short limits (a quarter of the limit).
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { TtlCache } from '../../core/ttl-cache.js';
import type { SessionRecord, SessionsStore } from '../../storage/types.js';
import { sha256 } from './credential-cache.js';
import { NO_SESSION } from './refusals.js';

const TOUCH_INTERVAL_MS = 60_000;
const SESSION_CACHE_TTL_MS = 10_000;

export const newSecret = () => randomBytes(32).toString('base64url');

export interface SessionLimits {
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
}

/** A session as cached: the record and when its activity last reached the store. */
export interface SessionEntry {
  session: SessionRecord;
  persistedLastSeen: number;
}

/** How a session lookup ended: the entry, or why there is none (for the refusal). */
export type SessionLookup = { entry: SessionEntry } | { missing: string; userId?: string };

export function createSessionKeeper({ sessions, limits, clock, logger }: {
  sessions: SessionsStore;
  limits: SessionLimits;
  clock: () => number;
  logger: Logger;
}) {
  const cache = new TtlCache<SessionEntry>(SESSION_CACHE_TTL_MS, 50_000, clock);
  // Activity must reach the store well within the idle timeout: a session re-read after its
  // cache entry expires would otherwise look idle while its user is active.
  const touchIntervalMs = Math.min(TOUCH_INTERVAL_MS, Math.max(1, Math.floor(limits.idleTimeoutMs / 4)));

  const expiry = (session: SessionRecord, now: number): string | undefined =>
    now - session.lastSeen > limits.idleTimeoutMs
      ? 'session expired (idle too long)'
      : now - session.created > limits.absoluteTimeoutMs
        ? 'session expired'
        : undefined;

  return {
    /** The cached, unexpired session for a session id, without I/O. */
    peek(sessionId: string, now: number): SessionEntry | undefined {
      const entry = cache.get(sha256(sessionId));
      return entry && !expiry(entry.session, now) ? entry : undefined;
    },

    /** The session for a session id; an expired one is deleted and named as missing. */
    async find(sessionId: string, now: number): Promise<SessionLookup> {
      const idHash = sha256(sessionId);
      let entry = cache.get(idHash);
      if (!entry) {
        const stored = await sessions.get(idHash);
        if (!stored) return { missing: NO_SESSION };
        entry = { session: stored, persistedLastSeen: stored.lastSeen };
        cache.set(idHash, entry);
      }
      const expired = expiry(entry.session, now);
      if (expired) {
        cache.delete(idHash);
        await sessions.delete(idHash);
        return { missing: expired, userId: entry.session.userId };
      }
      return { entry };
    },

    /** Records activity; the store hears of it at most once per touch interval. */
    touch(entry: SessionEntry, now: number): void {
      entry.session.lastSeen = now;
      if (now - entry.persistedLastSeen >= touchIntervalMs) {
        entry.persistedLastSeen = now;
        sessions.touch(entry.session.idHash, now).catch((err: unknown) => logger.error({ err }, 'cannot record session activity'));
      }
    },

    /** Drops a cached session (the store keeps it): its user was refused, say. */
    uncache(idHash: string): void {
      cache.delete(idHash);
    },

    /** Drops every cached session of a user (the store keeps them). */
    uncacheUser(userId: string): void {
      cache.deleteWhere((e) => e.session.userId === userId);
    },

    async open(userId: string): Promise<{ sessionId: string; csrfToken: string }> {
      const sessionId = newSecret();
      const now = clock();
      const session: SessionRecord = { idHash: sha256(sessionId), userId, csrfToken: newSecret(), created: now, lastSeen: now };
      await sessions.create(session);
      cache.set(session.idHash, { session, persistedLastSeen: now });
      return { sessionId, csrfToken: session.csrfToken };
    },

    async close(idHash: string): Promise<void> {
      cache.delete(idHash);
      await sessions.delete(idHash);
    },

    /** Ends every session of the user but `except` (a session id hash), cached ones too. */
    async endAll(userId: string, except?: string): Promise<void> {
      cache.deleteWhere((e) => e.session.userId === userId && e.session.idHash !== except);
      await sessions.deleteForUser(userId, except);
    },

    purgeExpired(): Promise<number> {
      const now = clock();
      return sessions.deleteExpired(now - limits.idleTimeoutMs, now - limits.absoluteTimeoutMs);
    },
  };
}

export type SessionKeeper = ReturnType<typeof createSessionKeeper>;
