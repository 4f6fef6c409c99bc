// Check results on their way to the server: sent in batches (POST /stat takes up to 1,000),
// kept while the server cannot be reached (up to `maxBuffered`, the oldest dropped first and
// counted), so a network outage costs history only beyond that bound. A batch the server
// refuses (an object deleted meanwhile) is retried item by item and the refused items dropped.
// A batch is taken out of the buffer while it is sent, and what was not accepted goes back in
// front: the trim of a full buffer never cuts into it, and nothing accepted is sent twice.
import { ServerError, type ServerClient, type StatItem } from './server-client.js';

const BATCH = 1000;

/** 4xx other than 401/429: the server will refuse these items again; anything else may pass later. */
const refused = (err: unknown) => err instanceof ServerError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429;

export function createResultSender({ client, log, maxBuffered = 100_000, flushMs = 1000 }: {
  client: Pick<ServerClient, 'sendStats'>;
  log: (message: string) => void;
  maxBuffered?: number;
  flushMs?: number;
}) {
  let buffer: StatItem[] = [];
  let sending: Promise<void> | undefined;
  let dropped = 0;
  let sent = 0;
  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  function trim(): void {
    if (buffer.length <= maxBuffered) return;
    const over = buffer.length - maxBuffered;
    buffer = buffer.slice(over);
    dropped += over;
  }

  /** Sends `items`; returns those not yet accepted when the server could not be reached. */
  async function send(items: StatItem[]): Promise<StatItem[]> {
    try {
      await client.sendStats(items);
      sent += items.length;
      return [];
    } catch (err) {
      if (!refused(err)) throw Object.assign(err as Error, { unsent: items });
      if (items.length === 1) {
        dropped++;
        log(`result for entity ${items[0]!.entityId} refused: ${(err as Error).message}`);
        return [];
      }
      for (let i = 0; i < items.length; i++) {
        try {
          await send([items[i]!]);
        } catch (inner) {
          throw Object.assign(inner as Error, { unsent: items.slice(i) });
        }
      }
      return [];
    }
  }

  function flush(): Promise<void> {
    sending ??= (async () => {
      while (buffer.length > 0) {
        const batch = buffer.splice(0, BATCH);
        try {
          await send(batch);
        } catch (err) {
          const unsent = (err as { unsent?: StatItem[] }).unsent ?? batch;
          buffer = unsent.concat(buffer);
          trim();
          log(`sending ${unsent.length} results failed (${(err as Error).message}); kept for the next try`);
          return;
        }
      }
    })().finally(() => {
      sending = undefined;
    });
    return sending;
  }

  return {
    add(item: StatItem): void {
      buffer.push(item);
      trim();
      if (buffer.length >= BATCH) void flush();
    },
    flush,
    counters: () => ({ buffered: buffer.length, sent, dropped }),
    stop(): void {
      clearInterval(timer);
    },
  };
}
