// The message bus that joins the embedded brokers of a cluster: aedes' `mq` option with
// mqemitter-redis over Redis pub/sub (Debian's redis-server), so a subscriber on one node
// receives what a client published on another. Each message is still recorded once: Vigil
// records in authorizePublish, on the node the publisher is connected to; what arrives over
// Redis goes straight to that node's subscribers.
//
// mqemitter-redis delivers even a node's own messages through Redis. So while Redis is away,
// no subscriber receives anything, on any node. Recording goes on and a PUBACK still means
// "in storage". The two connections are made here rather than by mqemitter-redis, for three
// reasons:
// - the publishing one has no offline queue: a message that cannot reach Redis is dropped
//   and counted, not held in memory until Redis returns, and the publisher stays connected;
// - the subscribing one keeps its queue and retries without limit, so a subscription made
//   during an outage takes effect on reconnect;
// - a node waits for both at start and refuses to start when Redis cannot be reached, rather
//   than run as a cluster member whose subscribers hear nothing.
import { Redis } from 'ioredis';
import MQEmitterRedis from 'mqemitter-redis';
import type { Logger } from 'pino';
import type { ThrottledLog } from '../log-throttle.js';
import { withTimeout } from '../../core/with-timeout.js';

export interface RedisBus {
  /** For Aedes.createBroker({ mq }). */
  mq: MQEmitterRedis.MQEmitterRedis;
  counts: { busDropped: number; busErrors: number };
}

export const BUS_CONNECT_TIMEOUT_MS = 5_000;

/** Redis URL without its password, for messages. */
export function redactedRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'redis://?';
  }
}

export async function openRedisBus(url: string, log: Logger, warn: ThrottledLog): Promise<RedisBus> {
  const counts = { busDropped: 0, busErrors: 0 };
  const pubConn = new Redis(url, { enableOfflineQueue: false, lazyConnect: true });
  const subConn = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true });
  const where = redactedRedisUrl(url);
  const onError = (err: Error) => {
    counts.busErrors++;
    warn('mqtt-bus-error', { err: err.message, redis: where }, 'MQTT bus (Redis) error: messages are not delivered to subscribers until it is back');
  };
  // ioredis reports every failed reconnect as 'error'; unhandled, EventEmitter would throw.
  pubConn.on('error', onError);
  subConn.on('error', onError);
  try {
    await withTimeout(Promise.all([pubConn.connect(), subConn.connect()]), BUS_CONNECT_TIMEOUT_MS, `MQTT bus: Redis at ${where} not reached within ${BUS_CONNECT_TIMEOUT_MS} ms`);
  } catch (err) {
    pubConn.disconnect();
    subConn.disconnect();
    throw err;
  }
  const mq = MQEmitterRedis({ pubConn, subConn });
  // mqemitter-redis re-emits the connections' errors on `state`; they are logged above.
  (mq as unknown as { state: NodeJS.EventEmitter }).state.on('error', () => {});
  const emit = mq.emit.bind(mq);
  // aedes answers a failed emit by closing the publisher's connection: for a message already
  // recorded and acknowledged, a missed delivery to subscribers is the smaller harm.
  mq.emit = (message, done) => emit(message, (err) => {
    if (err) {
      counts.busDropped++;
      warn('mqtt-bus-dropped', { err: err.message, topic: message.topic }, 'MQTT message not passed to subscribers: the bus (Redis) is not reachable');
    }
    done?.();
  });
  // aedes waits for a (un)subscription's callback before its SUBACK, and before a closing
  // client is gone (so before the broker, and the node, can stop). With Redis away that
  // callback would wait for Redis: it is called at once instead. Local routing changes at
  // once anyway, and the queued Redis command takes effect when Redis is back.
  const calledNowIfAway = (done?: () => void): (() => void) | undefined => {
    if (subConn.status === 'ready' || !done) return done;
    setImmediate(done);
    return undefined;
  };
  const on = mq.on.bind(mq);
  const removeListener = mq.removeListener.bind(mq);
  mq.on = (topic, listener, done) => on(topic, listener, calledNowIfAway(done));
  mq.removeListener = (topic, listener, done) => removeListener(topic, listener, calledNowIfAway(done));
  // aedes closes the bus when the broker closes. mqemitter-redis' own close sends QUIT on both
  // connections and waits for them to end: with Redis away that rejects unhandled (no offline
  // queue) or never ends, so a node could not stop. Here a connection that is not ready is
  // just dropped, a QUIT waits at most a second, and then the emitter's own close runs.
  const closeEmitter = (mq as unknown as { _close(cb: () => void): void })._close.bind(mq);
  mq.close = (cb) => {
    const end = async (conn: Redis) => {
      if (conn.status === 'ready') await withTimeout(conn.quit(), 1_000).catch(() => undefined);
      conn.disconnect();
    };
    void Promise.all([end(pubConn), end(subConn)]).then(() => closeEmitter(cb));
  };
  log.info({ redis: where }, 'MQTT bus joined (messages reach subscribers on every node)');
  return { mq, counts };
}
