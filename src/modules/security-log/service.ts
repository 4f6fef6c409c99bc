// The security log: sign-ins, sign-outs, lock-outs and refusals. Records are queued and
// written in batches so that a burst of failed sign-ins costs one transaction, not hundreds.
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { scanPage } from '../../core/scan-page.js';
import { compileFilterParam } from '../../core/input/filter-param.js';
import type { SecurityEvent, SecurityLogStore, StoredSecurityEvent } from '../../storage/types.js';
import { SECURITY_EVENTS, type ClientContext, type SecurityEventKind, type SecuritySource } from './events.js';
import { createRepeatFolder } from './repeat-folder.js';

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
const MAX_OPEN_SERIES = 10_000;
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

  const writeQueued = (): Promise<void> => {
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

  /** Writes everything recorded so far, the counts of repeats folded so far included. */
  const flush = (): Promise<void> => {
    repeats.drain();
    return writeQueued();
  };

  const view = ({ userId: _userId, timestamp, ...rest }: StoredSecurityEvent): SecurityLogView => ({
    ...rest,
    timestamp: new Date(timestamp).toISOString(),
  });

  // id and timestamp are shown differently from how they are stored: not pushed down.
  const compileFilter = (text: string | undefined) => compileFilterParam<SecurityLogView>(text, NOT_PUSHED);

  type Details = { login: string; userId?: string | null; message: string; source: SecuritySource };

  function push(kind: SecurityEventKind, ctx: ClientContext, details: Details, folded?: { count: number; at: number }): void {
    queue.push({
      timestamp: folded?.at ?? clock(),
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
      extra: { source: details.source, channel: ctx.channel ?? 'http', ...(folded ? { count: folded.count } : {}) },
    });
    if (queue.length >= FLUSH_AT) void writeQueued();
    else timer ??= setTimeout(writeQueued, FLUSH_DELAY_MS);
  }

  const repeats = createRepeatFolder<{ kind: SecurityEventKind; ctx: ClientContext; details: Details }>({
    intervalMs: REPEAT_INTERVAL_MS, maxKeys: MAX_OPEN_SERIES, clock,
    write: (e, count, at) => push(e.kind, e.ctx, e.details, { count, at }),
  });

  return {
    record(kind: SecurityEventKind, ctx: ClientContext, details: Details): void {
      push(kind, ctx, details);
    },

    /**
     * Records an event that can repeat as fast as a client sends requests, folded by `key`:
     * the first of an interval is a record (extra.count 1), the repeats one more record with
     * their count. Nothing is dropped; a flood costs two records per key and interval.
     */
    recordRepeat(key: string, kind: SecurityEventKind, ctx: ClientContext, details: Details): void {
      repeats.hit(key, { kind, ctx, details });
    },

    /**
     * Counts one more repeat of `key` when its series is open (true); false when the caller
     * must describe it with `recordRepeat` (for details that cost a lookup to make).
     */
    countRepeat(key: string): boolean {
      return repeats.repeat(key);
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
