// The security log: sign-ins, sign-outs, lock-outs and refusals. Records are queued and
// written in batches so that a burst of failed sign-ins costs one transaction, not hundreds.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { scanPage } from '../../core/scan-page.js';
import { TtlCache } from '../../core/ttl-cache.js';
import { compileFilterParam } from '../../http/filter-param.js';
import type { SecurityEvent, SecurityLogStore, StoredSecurityEvent } from '../../storage/types.js';
import { SECURITY_EVENTS, type ClientContext, type SecurityEventKind, type SecuritySource } from './events.js';

export interface SecurityLogView extends Omit<StoredSecurityEvent, 'timestamp' | 'userId'> {
  timestamp: string;
}

export interface SecurityLogQueryInput {
  from?: number;
  to?: number;
  limit: number;
  skip: number;
  filter?: string;
  userId?: string;
}

const NOT_PUSHED = new Set(['id', 'timestamp']);
const FLUSH_AT = 500;
const REPEAT_INTERVAL_MS = 10_000;
const FLUSH_DELAY_MS = 20;
const SCAN_BATCH = 2000;
/** A filtered query reads at most this many records looking for matches. */
export const MAX_FILTER_SCAN = 1_000_000;

export interface SecurityLogDeps {
  store: SecurityLogStore;
  clock: () => number;
  logger: Logger;
  retentionDays: number;
  host?: string;
}

export function createSecurityLogService({ store, clock, logger, retentionDays, host = hostname() }: SecurityLogDeps) {
  let queue: SecurityEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return writing;
    writing = writing.then(() =>
      store.append(batch).catch((err: unknown) => logger.error({ err, count: batch.length }, 'security log write failed')),
    );
    return writing;
  };

  const view = ({ userId: _userId, timestamp, ...rest }: StoredSecurityEvent): SecurityLogView => ({
    ...rest,
    timestamp: new Date(timestamp).toISOString(),
  });

  // id and timestamp are shown differently from how they are stored: not pushed down.
  const compileFilter = (text: string | undefined) => compileFilterParam<SecurityLogView>(text, NOT_PUSHED);

  const recentKeys = new TtlCache<true>(REPEAT_INTERVAL_MS, 10_000, clock);

  return {
    /**
     * True when `key` was already seen within the last ten seconds (and marks it seen): for
     * events that can repeat as fast as a client sends requests, so that a flood of them
     * costs one record per interval, not one per request.
     */
    isRepeat(key: string): boolean {
      if (recentKeys.get(key)) return true;
      recentKeys.set(key, true);
      return false;
    },

    record(
      kind: SecurityEventKind,
      ctx: ClientContext,
      details: { login: string; userId?: string | null; message: string; source: SecuritySource },
    ): void {
      queue.push({
        timestamp: clock(),
        userId: details.userId ?? null,
        ...SECURITY_EVENTS[kind],
        host,
        message: {
          remoteAddress: ctx.remoteAddress,
          login: details.login,
          message: details.message,
          connection: {
            localAddress: ctx.localAddress,
            localHost: ctx.localHost,
            localPort: ctx.localPort,
            remoteAddress: ctx.remoteAddress,
            remoteHost: ctx.remoteHost,
            request: { request: ctx.requestLine, hostname: ctx.hostname, userAgent: ctx.userAgent },
          },
        },
        extra: { source: details.source, channel: ctx.channel ?? 'http' },
      });
      if (queue.length >= FLUSH_AT) void flush();
      else timer ??= setTimeout(flush, FLUSH_DELAY_MS);
    },

    flush,

    /** Newest first. Without a filter a page is one index range scan; with one, records are
     * read in batches (newest first) until the page is full or MAX_FILTER_SCAN were read. */
    async query(input: SecurityLogQueryInput): Promise<SecurityLogView[]> {
      const filter = compileFilter(input.filter);
      const base = { from: input.from, to: input.to, userId: input.userId, conditions: filter?.conditions };
      if (input.limit === 0) return [];
      if (!filter) return (await store.find({ ...base, limit: input.limit, skip: input.skip })).map(view);
      return scanPage<StoredSecurityEvent, SecurityLogView>({
        fetch: (before, limit) => store.find({ ...base, limit, before: before && { timestamp: before.timestamp, id: before.id } }),
        keep: (rec) => {
          const v = view(rec);
          return filter.matches(v) ? v : undefined;
        },
        skip: input.skip, limit: input.limit, batchSize: SCAN_BATCH, maxScan: MAX_FILTER_SCAN,
      });
    },

    async purgeExpired(): Promise<number> {
      return store.deleteOlderThan(clock() - retentionDays * 86_400_000);
    },
  };
}

export type SecurityLogService = ReturnType<typeof createSecurityLogService>;
