// Check results on their way to the server: sent in batches (POST /stat takes up to 1,000),
// kept while the server cannot be reached (up to `maxBuffered`, the oldest dropped first and
// counted), so a network outage costs history only beyond that bound. A batch the server
// refuses (an object deleted meanwhile) is retried item by item and the refused items dropped.
import { ServerError, type ServerClient, type StatItem } from './server-client.js';

const BATCH = 1000;

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

  async function sendOne(items: StatItem[]): Promise<void> {
    try {
      await client.sendStats(items);
      sent += items.length;
    } catch (err) {
      if (err instanceof ServerError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429) {
        if (items.length === 1) {
          dropped++;
          log(`result for entity ${items[0]!.entityId} refused: ${err.message}`);
          return;
        }
        for (const item of items) await sendOne([item]);
        return;
      }
      throw err;
    }
  }

  function flush(): Promise<void> {
    sending ??= (async () => {
      while (buffer.length > 0) {
        const batch = buffer.slice(0, BATCH);
        try {
          await sendOne(batch);
        } catch (err) {
          log(`sending ${batch.length} results failed (${(err as Error).message}); kept for the next try`);
          return;
        }
        buffer = buffer.slice(batch.length);
      }
    })().finally(() => {
      sending = undefined;
    });
    return sending;
  }

  return {
    add(item: StatItem): void {
      buffer.push(item);
      if (buffer.length > maxBuffered) {
        const over = buffer.length - maxBuffered;
        buffer = buffer.slice(over);
        dropped += over;
      }
      if (buffer.length >= BATCH) void flush();
    },
    flush,
    counters: () => ({ buffered: buffer.length, sent, dropped }),
    stop(): void {
      clearInterval(timer);
    },
  };
}
