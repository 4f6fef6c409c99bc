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
import { DROPPED_TOPIC } from './publish-hook.js';

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

/** A publish or (un)subscription Redis has not answered within this long is given up on. */
export const BUS_COMMAND_MS = 1_000;

/** The Prefix variant of mqemitter-redis puts `prefix` before every channel (not in its types). */
type PrefixedConstructor = new (prefix: string, options: Parameters<typeof MQEmitterRedis>[0]) => MQEmitterRedis.MQEmitterRedis;

export async function openRedisBus(url: string, channelPrefix: string, log: Logger, warn: ThrottledLog): Promise<RedisBus> {
  const counts = { busDropped: 0, busErrors: 0 };
  // keepAlive: a Redis gone silent (paused, partitioned) is noticed by TCP, not only a closed one.
  // The publishing side gives up on a command after BUS_COMMAND_MS and never resends one: a
  // publisher must not wait for a Redis that does not answer.
  const pubConn = new Redis(url, { enableOfflineQueue: false, lazyConnect: true, keepAlive: 10_000, commandTimeout: BUS_COMMAND_MS, maxRetriesPerRequest: 0, autoResendUnfulfilledCommands: false, connectTimeout: BUS_CONNECT_TIMEOUT_MS });
  const subConn = new Redis(url, { maxRetriesPerRequest: null, lazyConnect: true, keepAlive: 10_000, connectTimeout: BUS_CONNECT_TIMEOUT_MS });
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
    const why = (err as Error).message;
    throw new Error(why.startsWith('MQTT bus') ? why : `MQTT bus: Redis at ${where} not reached (${why})`);
  }
  // Redis pub/sub ignores database numbers: the prefix keeps this cluster's channels apart from
  // another's and from other users of the same Redis.
  const Prefixed = (MQEmitterRedis as unknown as { MQEmitterRedisPrefix: PrefixedConstructor }).MQEmitterRedisPrefix;
  const mq = new Prefixed(channelPrefix, { pubConn, subConn });
  // What arrives on a subscribed channel is decoded and routed inside ioredis' data handler: a
  // message that is not one of ours (another program publishing on a matching channel) would
  // throw there, out of reach of any handler, and end the process. Caught, counted, logged.
  for (const event of ['messageBuffer', 'pmessageBuffer'] as const) {
    for (const listener of subConn.listeners(event) as Array<(...args: unknown[]) => void>) {
      subConn.off(event, listener);
      subConn.on(event, (...args: unknown[]) => {
        try {
          listener(...args);
        } catch (err) {
          counts.busErrors++;
          warn('mqtt-bus-foreign', { err: (err as Error).message }, 'MQTT bus: a message on a bus channel was not one of Vigil\'s: ignored');
        }
      });
    }
  }
  // mqemitter-redis re-emits the connections' errors on `state`; they are logged above.
  (mq as unknown as { state: NodeJS.EventEmitter }).state.on('error', () => {});
  const emit = mq.emit.bind(mq);
  // Refused messages (published under DROPPED_TOPIC, forwarded to nobody) do not cross the bus.
  // aedes answers a failed emit by closing the publisher's connection: for a message already
  // recorded and acknowledged, a missed delivery to subscribers is the smaller harm.
  mq.emit = (message, done) => (message.topic === DROPPED_TOPIC ? done?.() : emit(message, (err) => {
    if (err) {
      counts.busDropped++;
      warn('mqtt-bus-dropped', { err: err.message, topic: message.topic }, 'MQTT message not passed to subscribers: the bus (Redis) is not reachable');
    }
    done?.();
  }));
  // aedes waits for a (un)subscription's callback before its SUBACK, and before a closing
  // client is gone (so before the broker, and the node, can stop). With Redis away that
  // callback would wait for Redis: it is called at once instead. Local routing changes at
  // once anyway, and the queued Redis command takes effect when Redis is back.
  // Redis reachable but silent: the callback comes after BUS_COMMAND_MS at the latest.
  const calledNowIfAway = (done?: () => void): (() => void) | undefined => {
    if (!done) return done;
    if (subConn.status !== 'ready') {
      setImmediate(done);
      return undefined;
    }
    let called = false;
    const once = () => {
      if (called) return;
      called = true;
      clearTimeout(deadline);
      done();
    };
    const deadline = setTimeout(once, BUS_COMMAND_MS);
    return once;
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
