// The embedded MQTT broker (aedes). Clients sign in as users (mqtt-auth.ts); every message a
// client publishes goes through the one message path (message-handler.ts) before it is
// acknowledged, and subscribers receive messages about an entity only when they may see it.
//
// The work is done in aedes' authorizePublish hook, not in `published`: aedes 1.x writes the
// PUBACK of a QoS 1 message *before* it publishes (and so before `published` runs), whereas
// authorizePublish runs before PUBACK/PUBREC. So "acknowledged" means "recorded and measured".
// Packets of one socket read are authorised concurrently and aedes reads the next chunk once
// they are all done: a fast publisher is slowed to the store's pace (TCP back-pressure), and
// the records of a chunk join one event-log batch.
//
// A publish the user may not make (no right for the topic, topic-rights.ts; an entity it may
// not change, or none) is a denial in the security log, folded per user, address and topic
// with a count. At QoS 1/2 it is not acknowledged: MQTT 3.1.1 (all aedes speaks) has no other
// way to say "refused" than closing the connection, so the connection is closed and the
// client knows its message was not taken. At QoS 0 (nothing to acknowledge) it is dropped.
// A `$` topic or a payload over mqtt.maxPayloadBytes is no question of rights: acknowledged
// and dropped, counted and logged, as mosquitto does. Dropping is done by moving the packet
// to a topic nobody can receive (MQTT-3.3.5-2 allows a positive acknowledgement).
//
// A change to a signed-in user's account (users' onAccountChange) reaches their connections
// at once: narrower rights or objectPermissions refilter what they may publish and receive,
// a block, deletion or new password disconnects them.
// A message the event log sheds under overload is not acknowledged at QoS 1/2: the connection
// is closed and the client sends it again, so nothing acknowledged is lost.
import { accountChange } from '../../modules/users/account-changed.js';
import { effectiveRights, type UsersService } from '../../modules/users/service.js';
import type { SecurityLogService } from '../../modules/security-log/service.js';
import type { UserRecord } from '../../storage/types.js';
import type { EventEmitter } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { hostname } from 'node:os';
import { Aedes, type AedesPublishPacket, type Client, type PublishPacket } from 'aedes';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { AuthService, Principal } from '../../modules/auth/service.js';
import type { Catalog } from '../../modules/catalog/catalog.js';
import { canSee, type EntityActor } from '../../modules/catalog/access.js';
import type { StatService } from '../stat-push.js';
import type { EventIntake } from '../event-intake.js';
import { entityTopic } from './entity-topic.js';
import { createLogThrottle } from '../log-throttle.js';
import { CONNACK, mqttSignIn, publishContext } from './mqtt-auth.js';
import { createMessageHandler, type MessageHandler } from './message-handler.js';
import { limitPacketSize } from './packet-limit.js';

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
/** How often connected clients' accounts are looked at (an account past activeTo is cut off within this). */
export const ACCOUNT_CHECK_MS = 5_000;
/** Retained messages kept at most (topics), and their total size. */
export const MAX_RETAINED = 10_000;
export const MAX_RETAINED_BYTES = 64 * 1024 * 1024;

/**
 * Room beyond mqtt.maxPayloadBytes for the topic and headers: a packet up to this much larger
 * is read and recorded as too large; a larger one closes the connection (packet-limit.ts).
 */
export const PACKET_SLACK_BYTES = 1024 * 1024;

/** Where refused publishes go: a `$` topic, so no `#` subscription matches it, and no one may subscribe to it. */
const DROPPED_TOPIC = '$vigil/dropped';

export function messageHandlerOf(deps: MqttDeps): MessageHandler {
  return createMessageHandler({
    catalog: deps.catalog, stat: deps.stat, events: deps.events, logger: deps.logger,
    maxPayloadBytes: deps.settings.maxPayloadBytes, jsonMaxDepth: deps.jsonMaxDepth ?? DEFAULT_JSON_MAX_DEPTH, clock: deps.clock ?? Date.now,
  });
}

interface Session {
  /** Replaced when the account changes (refilter). */
  principal: Principal;
  actor: EntityActor;
  /** The graph version the actor's visibility was computed at. */
  version: number;
}

export async function startMqttBroker(options: MqttDeps & { port: number; host: string }): Promise<MqttBroker> {
  const { auth, actorOf, catalog, logger, host } = options;
  const log = logger.child({ listener: 'mqtt' });
  const handler = messageHandlerOf({ ...options, logger: log });
  const signIn = mqttSignIn(auth, log);
  const warn = createLogThrottle(log);
  const sessions = new WeakMap<Client, Session>();
  /** Signed-in clients, for the account check. */
  const signedIn = new Set<Client>();
  const sockets = new Set<Socket>();
  const counts = { accountChanged: 0, accountRefiltered: 0, publishRefused: 0, persistentRefused: 0, retainRefused: 0, connections: 0, signIns: 0, connectRefused: 0, reservedTopic: 0, packetTooLarge: 0, shedDisconnects: 0, clientErrors: 0, connectionErrors: 0 };
  const maxPacketBytes = options.settings.maxPayloadBytes + PACKET_SLACK_BYTES;
  let packetLimitWarned = false;
  let agentId = `mqtt-broker@${hostname()}:${options.port}`;
  const clock = options.clock ?? Date.now;

  /**
   * The client's actor, recomputed when the entity tree changed since (objects moved, deleted).
   * Undefined (so: refused) if that fails: the hooks run inside aedes' socket handling, where
   * an exception would escape into the process.
   */
  function actorFor(client: Client): EntityActor | undefined {
    const s = sessions.get(client);
    if (!s) return undefined;
    if (s.version !== catalog.graph.version) {
      try {
        s.actor = actorOf(s.principal);
        s.version = catalog.graph.version;
      } catch (err) {
        log.error({ err, clientId: client.id }, 'computing an MQTT client\'s visibility failed');
        return undefined;
      }
    }
    return s.actor;
  }

  /** Brings a client in line with its user's account as stored now. */
  function follow(client: Client, s: Session, now: UserRecord | undefined): void {
    const change = accountChange(s.principal.user, now, clock(), s.principal.method);
    if (change === 'end') {
      counts.accountChanged++;
      signedIn.delete(client);
      client.close();
    } else if (change === 'refilter') {
      counts.accountRefiltered++;
      s.principal = { ...s.principal, user: now!, rights: effectiveRights(now!) };
      // Recomputed at the next use (actorFor): the graph version no longer matches.
      s.version = -1;
    }
  }

  /** A refused publish: a denial in the security log, folded per user, address and topic. */
  function deny(client: Client, s: Session, topic: string, reason: string): void {
    const ctx = publishContext(client.conn as Socket, client.id, client.version, topic);
    const { user } = s.principal;
    options.securityLog.recordRepeat(`mqtt-publish\0${user.id}\0${ctx.remoteAddress}\0${topic}`, 'access-denied', ctx, {
      login: user.login, userId: user.id, message: `MQTT PUBLISH ${ctx.requestLine.slice('MQTT PUBLISH '.length)}: ${reason}`, source: 'rights',
    });
  }

  function drop(packet: PublishPacket): void {
    packet.topic = DROPPED_TOPIC;
    packet.retain = false;
  }

  // Hooks still running, so stop() can wait for them (a counter: this is per message).
  let inFlight = 0;
  let idle: (() => void) | undefined;
  const settled = () => {
    if (--inFlight === 0) idle?.();
  };

  // Retained messages live in the broker's memory: bounded in count and bytes.
  const retained = new Map<string, number>();
  let retainedBytes = 0;
  function retainAllowed(topic: string, size: number): boolean {
    const before = retained.get(topic) ?? 0;
    if (size === 0) {
      // An empty retained message clears the topic's.
      retained.delete(topic);
      retainedBytes -= before;
      return true;
    }
    if ((before === 0 && retained.size >= MAX_RETAINED) || retainedBytes - before + size > MAX_RETAINED_BYTES) return false;
    retained.set(topic, size);
    retainedBytes += size - before;
    return true;
  }
  /** Puts the topic's accounting back as it was before a publish that was then not kept. */
  function retainUndo(topic: string, before: number | undefined): void {
    retainedBytes += (before ?? 0) - (retained.get(topic) ?? 0);
    if (before === undefined) retained.delete(topic);
    else retained.set(topic, before);
  }

  const broker = await Aedes.createBroker({
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
      inFlight++;
      signIn({
        clientId: client.id, username, password, version: client.version,
        remoteAddress: conn.remoteAddress ?? '', localAddress: conn.localAddress ?? '', localPort: conn.localPort ?? 0,
      }).then((result) => {
        if (!('principal' in result)) {
          counts.connectRefused++;
          return Object.assign(new Error(result.message), { returnCode: result.refused });
        }
        sessions.set(client, { principal: result.principal, actor: actorOf(result.principal), version: catalog.graph.version });
        // On the socket, not clientDisconnect: a client that closes while its sign-in is still
        // being checked is never registered by aedes, so that event never comes for it.
        if (!conn.destroyed) {
          signedIn.add(client);
          conn.once('close', () => signedIn.delete(client));
        }
        counts.signIns++;
        return null;
      }).catch((err: unknown) => {
        log.error({ err, clientId: client.id }, 'MQTT sign-in failed');
        return Object.assign(new Error('server unavailable'), { returnCode: CONNACK.serverUnavailable });
      }).then((refusal) => {
        settled();
        if (refusal) done(refusal, false);
        else done(null, true);
      }).catch((err: unknown) => log.error({ err }, 'MQTT authenticate hook failed'));
    },

    authorizePublish(client, packet, done) {
      // Only the will of a client from before a restart comes without one; nobody to attribute it to.
      if (!client) return done(null);
      if (packet.topic.startsWith('$')) {
        counts.reservedTopic++;
        warn('reserved-topic', { topic: packet.topic, clientId: client.id }, 'MQTT publish to a reserved ($) topic dropped');
        drop(packet);
        return done(null);
      }
      const session = sessions.get(client);
      const actor = actorFor(client);
      if (!session || !actor) return done(new Error('not signed in'));
      const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
      // What the retained store held for the topic, to put back when the publish is not kept
      // (refused or too large): a refused user must neither fill the store nor empty it.
      const retainedBefore = packet.retain ? retained.get(packet.topic) : undefined;
      if (packet.retain && !retainAllowed(packet.topic, payload.byteLength)) {
        // Delivered and recorded, but not kept for later subscribers.
        counts.retainRefused++;
        warn('retain-refused', { topic: packet.topic, clientId: client.id }, 'MQTT retained message not kept: the broker\'s retained store is full');
        packet.retain = false;
      }
      inFlight++;
      const topic = packet.topic;
      const accounted = packet.retain;
      handler.handle({
        topic, payload, qos: packet.qos, retain: packet.retain, clientId: client.id, login: session.principal.user.login,
      }, actor, agentId, (reason) => deny(client, session, topic, reason)).then((outcome) => {
        settled();
        if (accounted && (outcome === 'refused' || outcome === 'too-large')) retainUndo(topic, retainedBefore);
        if (outcome === 'refused') {
          counts.publishRefused++;
          drop(packet);
          // No PUBACK/PUBREC for a refused QoS 1/2 message: aedes closes the connection.
          if (packet.qos > 0) return done(new Error('not authorized to publish on this topic'));
        }
        if (outcome === 'too-large') drop(packet);
        if (outcome === 'shed' && packet.qos > 0) {
          if (accounted) retainUndo(topic, retainedBefore);
          counts.shedDisconnects++;
          return done(new Error('event log overloaded: message not acknowledged'));
        }
        done(null);
      }, (err: Error) => {
        settled();
        if (accounted) retainUndo(topic, retainedBefore);
        done(err);
      }).catch((err: unknown) => log.error({ err }, 'MQTT authorizePublish hook failed'));
    },

    authorizeSubscribe(client, sub, done) {
      if (sub.topic.startsWith(DROPPED_TOPIC)) return done(null, null);
      // $SYS names every connected client: only for users who see everything.
      if (sub.topic.startsWith('$SYS') && !actorFor(client)?.visibility.all) return done(null, null);
      done(null, sub);
    },

    authorizeForward(client, packet): AedesPublishPacket | null {
      if (packet.topic === DROPPED_TOPIC) return null;
      const topic = entityTopic(packet.topic);
      if (!topic) return packet;
      const actor = actorFor(client);
      if (!actor) return null;
      if (actor.visibility.all) return packet;
      const entity = catalog.entity(topic.id);
      return entity && entity.entityType === topic.entityType && canSee(actor, entity) ? packet : null;
    },
  });

  const checkAccounts = async () => {
    for (const client of [...signedIn]) {
      const s = sessions.get(client);
      if (!s) continue;
      try {
        follow(client, s, await options.users!.getForAuth(s.principal.user.id));
      } catch (err) {
        log.error({ err, clientId: client.id }, 'checking an MQTT client\'s account failed');
      }
    }
  };
  const accountTimer = options.users ? setInterval(() => void checkAccounts(), ACCOUNT_CHECK_MS).unref() : undefined;
  const unfollow = options.users?.onAccountChange((userId, now) => {
    for (const client of [...signedIn]) {
      const s = sessions.get(client);
      if (s && s.principal.user.id === userId) follow(client, s, now);
    }
  });

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
    counters: () => ({ ...handler.counters(), ...counts, connected: broker.connectedClients }),
    stop() {
      stopping ??= (async () => {
        clearInterval(accountTimer);
        unfollow?.();
        const closed = new Promise<void>((r) => server.close(() => r()));
        await new Promise<void>((r) => broker.close(() => r()));
        // Connections that never signed in are not the broker's clients yet: close them too.
        for (const s of sockets) s.destroy();
        await closed;
        // Messages already being stored finish (their clients are gone, unacknowledged).
        if (inFlight > 0) await new Promise<void>((r) => (idle = r));
      })();
      return stopping;
    },
  };
}
