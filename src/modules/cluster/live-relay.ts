// The live stream across nodes (SCALE-OUT.md "live fan-out"): a client of node B sees the state
// and incident events node A's engine and incidents produced. Those events are low-rate; they
// ride the change feed, gathered for FLUSH_MS into one row. Stat events (one per measurement)
// stay on the node that took the measurement.
//
// Relayed events go to the stream's own bus only, never to the node's engine bus: the triggers
// and notifications listening there must not fire a second time for another node's event.
import type { Logger } from 'pino';
import { EventBus, type LiveEvent } from '../live/event-bus.js';
import type { ChangeFeed } from './change-feed.js';

export const LIVE_EVENTS = 'live-events';
const FLUSH_MS = 50;
const MAX_EVENTS = 500;

export function relayLiveEvents(local: EventBus, feed: ChangeFeed, logger: Logger): { stream: EventBus; stop(): Promise<void> } {
  const stream = new EventBus(logger);
  let pending: LiveEvent[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain: Promise<void> = Promise.resolve();

  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return;
    const batch = pending;
    pending = [];
    chain = chain.then(() => feed.publish(LIVE_EVENTS, String(batch.length), JSON.stringify(batch)));
  };

  let stopped = false;
  const unsubscribe = local.subscribe((event) => {
    stream.publish(event);
    if (event.type === 'stat' || stopped) return;
    pending.push(event);
    if (pending.length >= MAX_EVENTS) flush();
    else timer ??= setTimeout(flush, FLUSH_MS).unref();
  });
  feed.subscribe(LIVE_EVENTS, (_count, payload) => {
    if (payload === undefined) return;
    for (const event of JSON.parse(payload) as LiveEvent[]) stream.publish(event);
  });
  return {
    stream,
    async stop() {
      stopped = true;
      unsubscribe();
      flush();
      await chain;
    },
  };
}
