// The embedded MQTT broker (aedes), assembled: clients sign in as users (mqtt-auth.ts) and
// stay in line with their accounts (client-sessions.ts); every message a client publishes
// goes through the one message path (message-handler.ts, via publish-hook.ts) before it is
// acknowledged; subscribers receive messages about an entity only when they may see it
// (authorizeForward below); retained messages are bounded (retained-budget.ts).
//
// The work is done in aedes' authorizePublish hook, not in `published`: aedes 1.x writes the
// PUBACK of a QoS 1 message *before* it publishes (and so before `published` runs), whereas
// authorizePublish runs before PUBACK/PUBREC. So "acknowledged" means "recorded and measured".
// Packets of one socket read are authorised concurrently and aedes reads the next chunk once
// they are all done: a fast publisher is slowed to the store's pace (TCP back-pressure), and
// the records of a chunk join one event-log batch.
import type { UsersService } from '../../modules/users/service.js';
import type { SecurityLogService } from '../../modules/security-log/service.js';
import type { EventEmitter } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { Aedes, type AedesPublishPacket } from 'aedes';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { AuthService, Principal } from '../../modules/auth/service.js';
import type { Catalog } from '../../modules/catalog/catalog.js';
import { canSee, type EntityActor } from '../../modules/catalog/access.js';
import type { StatService } from '../stat-push.js';
import type { EventIntake } from '../event-intake.js';
import { entityTopic } from './entity-topic.js';
import { createLogThrottle } from '../log-throttle.js';
import { CONNACK, mqttSignIn } from './mqtt-auth.js';
import { createMessageHandler, type MessageHandler } from './message-handler.js';
import { limitPacketSize } from './packet-limit.js';
import { ClientSessions } from './client-sessions.js';
import { InFlight } from './in-flight.js';
import { createPublishHook, DROPPED_TOPIC } from './publish-hook.js';
import { RetainedBudget } from './retained-budget.js';
import { openRedisBus, type RedisBus } from './redis-bus.js';

export { ACCOUNT_CHECK_MS } from './client-sessions.js';

export interface MqttDeps {
  auth: AuthService;
  actorOf(principal: Principal): EntityActor;
  catalog: Catalog;
  stat: StatService;
  events: EventIntake;
  logger: Logger;
  settings: Config['mqtt'];
  /** JSON nesting bound of message bodies (as config.http.jsonMaxDepth bounds HTTP bodies). */
  jsonMaxDepth?: number;
  clock?: () => number;
  /** Refused publishes are written here, as denials. */
  securityLog: Pick<SecurityLogService, 'recordRepeat'>;
  /** When given, connected clients follow their account's changes at once (refiltered, or
   * disconnected to sign in afresh), and are looked at every few seconds for what no change
   * announces (activeTo passing). */
  users?: Pick<UsersService, 'getForAuth' | 'onAccountChange'>;
}

export interface MqttBroker {
  port: number;
  /** The agentId of the records this broker writes. */
  agentId: string;
  counters(): Record<string, number>;
  stop(): Promise<void>;
}

export const DEFAULT_JSON_MAX_DEPTH = 64;
/** Retained messages kept at most (topics), and their total size. */
export const MAX_RETAINED = 10_000;
export const MAX_RETAINED_BYTES = 64 * 1024 * 1024;

/**
 * Room beyond mqtt.maxPayloadBytes for the topic and headers: a packet up to this much larger
 * is read and recorded as too large; a larger one closes the connection (packet-limit.ts).
 */
export const PACKET_SLACK_BYTES = 1024 * 1024;

export function messageHandlerOf(deps: MqttDeps): MessageHandler {
  return createMessageHandler({
    catalog: deps.catalog, stat: deps.stat, events: deps.events, logger: deps.logger,
    maxPayloadBytes: deps.settings.maxPayloadBytes, jsonMaxDepth: deps.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH, clock: deps.clock ?? Date.now,
  });
}

export async function startMqttBroker(options: MqttDeps & { port: number; host: string }): Promise<MqttBroker> {
  const { auth, actorOf, catalog, logger, host } = options;
  const log = logger.child({ listener: 'mqtt' });
  const handler = messageHandlerOf({ ...options, logger: log });
  const signIn = mqttSignIn(auth, log);
  const warn = createLogThrottle(log);
  const clock = options.clock ?? Date.now;
  const sessions = new ClientSessions({ actorOf, graphVersion: () => catalog.treeVersion, clock, log, users: options.users });
  const sockets = new Set<Socket>();
  const counts = { publishRefused: 0, persistentRefused: 0, retainRefused: 0, connections: 0, signIns: 0, connectRefused: 0, reservedTopic: 0, packetTooLarge: 0, shedDisconnects: 0, clientErrors: 0, connectionErrors: 0 };
  const maxPacketBytes = options.settings.maxPayloadBytes + PACKET_SLACK_BYTES;
  let packetLimitWarned = false;
  let agentId = `mqtt-broker@${hostname()}:${options.port}`;
  // Hooks still running, so stop() can wait for them.
  const inFlight = new InFlight();
  // Retained messages live in the broker's memory: bounded in count and bytes.
  const retained = new RetainedBudget(MAX_RETAINED, MAX_RETAINED_BYTES);
  const authorizePublish = createPublishHook({
    sessions, handler, retained, inFlight, counts, warn, log, securityLog: options.securityLog, agentId: () => agentId,
  });

  // In a cluster, the brokers of all nodes share one bus (redis-bus.ts); aedes closes it.
  const bus: RedisBus | undefined = options.settings.redisUrl ? await openRedisBus(options.settings.redisUrl, options.settings.redisChannelPrefix, log, warn) : undefined;

  const broker = await Aedes.createBroker({
    ...(bus ? { mq: bus.mq } : {}),
    drainTimeout: 30_000,
    connectTimeout: 10_000,

    // Sessions are not kept for clients that go away: the broker holds them in memory, and a
    // client subscribed to '#' that never comes back would have every later message queued
    // for it for ever. A client asking for a persistent session gets a clean one (CONNACK
    // sessionPresent false, which MQTT clients handle by subscribing again).
    preConnect(_client, packet, callback) {
      if (packet.clean === false) {
        counts.persistentRefused++;
        packet.clean = true;
      }
      callback(null, true);
    },

    authenticate(client, username, password, done) {
      const conn = client.conn as Socket;
      inFlight.begin();
      signIn({
        clientId: client.id, username, password, version: client.version,
        remoteAddress: conn.remoteAddress ?? '', localAddress: conn.localAddress ?? '', localPort: conn.localPort ?? 0,
      }).then((result) => {
        if (!('principal' in result)) {
          counts.connectRefused++;
          return Object.assign(new Error(result.message), { returnCode: result.refused });
        }
        sessions.add(client, result.principal, !conn.destroyed, (listener) => conn.once('close', listener));
        counts.signIns++;
        return null;
      }).catch((err: unknown) => {
        log.error({ err, clientId: client.id }, 'MQTT sign-in failed');
        return Object.assign(new Error('server unavailable'), { returnCode: CONNACK.serverUnavailable });
      }).then((refusal) => {
        inFlight.end();
        if (refusal) done(refusal, false);
        else done(null, true);
      }).catch((err: unknown) => log.error({ err }, 'MQTT authenticate hook failed'));
    },

    authorizePublish,

    authorizeSubscribe(client, sub, done) {
      if (sub.topic.startsWith(DROPPED_TOPIC)) return done(null, null);
      // $SYS names every connected client: only for users who see everything.
      if (sub.topic.startsWith('$SYS') && !sessions.actorFor(client)?.visibility.all) return done(null, null);
      done(null, sub);
    },

    authorizeForward(client, packet): AedesPublishPacket | null {
      if (packet.topic === DROPPED_TOPIC) return null;
      const topic = entityTopic(packet.topic);
      if (!topic) return packet;
      const actor = sessions.actorFor(client);
      if (!actor) return null;
      if (actor.visibility.all) return packet;
      const entity = catalog.entity(topic.id);
      return entity && entity.entityType === topic.entityType && canSee(actor, entity) ? packet : null;
    },
  }).catch((err: unknown) => {
    // The bus is open: its connections would keep the process alive.
    bus?.mq.close(() => {});
    throw err;
  });

  sessions.start();

  broker.on('clientError', (client, err) => {
    counts.clientErrors++;
    log.debug({ clientId: client.id, err: err.message }, 'MQTT client error');
  });
  broker.on('connectionError', (client, err) => {
    counts.connectionErrors++;
    log.debug({ clientId: client.id, err: err.message }, 'MQTT connection error');
  });
  // aedes reports persistence failures as 'error'; unhandled, EventEmitter would throw them.
  (broker as EventEmitter).on('error', (err: Error) => log.error({ err }, 'MQTT broker error'));

  const server = createServer((socket) => {
    counts.connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    const client = broker.handle(socket);
    const limited = limitPacketSize(client, maxPacketBytes, (length) => {
      counts.packetTooLarge++;
      warn('packet-too-large', { remoteAddress: socket.remoteAddress, length, limit: maxPacketBytes }, 'MQTT packet over the size limit: connection closed');
    });
    if (!limited && !packetLimitWarned) {
      packetLimitWarned = true;
      log.warn('MQTT packet size limit not applied: the aedes/mqtt-packet internals it relies on changed');
    }
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    // The port is taken, say: the account following started above ends with the broker.
    sessions.stop();
    await new Promise<void>((r) => broker.close(() => r()));
    throw err;
  }
  server.on('error', (err) => log.error({ err }, 'MQTT listener error'));
  const port = (server.address() as { port: number }).port;
  agentId = `mqtt-broker@${hostname()}:${port}`;
  log.info({ host, port }, 'MQTT broker listening');

  let stopping: Promise<void> | undefined;
  return {
    port,
    agentId,
    counters: () => ({ ...handler.counters(), ...sessions.counts, ...counts, ...bus?.counts, connected: broker.connectedClients }),
    stop() {
      stopping ??= (async () => {
        sessions.stop();
        const closed = new Promise<void>((r) => server.close(() => r()));
        await new Promise<void>((r) => broker.close(() => r()));
        // Connections that never signed in are not the broker's clients yet: close them too.
        for (const s of sockets) s.destroy();
        await closed;
        // Messages already being stored finish (their clients are gone, unacknowledged).
        await inFlight.settled();
      })();
      return stopping;
    },
  };
}
