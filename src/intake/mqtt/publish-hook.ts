// aedes' authorizePublish hook: every message a client publishes goes through the one message
// path (message-handler.ts) here, before it is acknowledged (see broker.ts for why here and not
// in `published`). The outcome decides the packet's fate:
// - refused (no right for the topic, an entity the user may not change, or none): a denial in
//   the security log, folded per user, address and topic; at QoS 1/2 not acknowledged (aedes
//   closes the connection: MQTT 3.1.1 has no other way to say "refused"); at QoS 0 dropped;
// - too large, or a `$` topic: acknowledged and dropped, counted and logged, as mosquitto does;
// - shed by the event log under overload: at QoS 1/2 not acknowledged, so the client resends.
// Dropping moves the packet to a topic nobody can receive (MQTT-3.3.5-2 allows a positive
// acknowledgement). A retained message not kept gives its room in the retained budget back.
import type { AedesOptions, Client, PublishPacket } from 'aedes';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { SecurityLogService } from '../../modules/security-log/service.js';
import type { ClientSessions, Session } from './client-sessions.js';
import type { InFlight } from './in-flight.js';
import type { MessageHandler } from './message-handler.js';
import { publishContext } from './mqtt-auth.js';
import type { RetainedBudget } from './retained-budget.js';

/** Where refused publishes go: a `$` topic, so no `#` subscription matches it, and no one may subscribe to it. */
export const DROPPED_TOPIC = '$vigil/dropped';

export interface PublishCounts {
  publishRefused: number;
  retainRefused: number;
  reservedTopic: number;
  shedDisconnects: number;
}

export function createPublishHook({ sessions, handler, retained, inFlight, counts, warn, log, securityLog, agentId }: {
  sessions: ClientSessions;
  handler: MessageHandler;
  retained: RetainedBudget;
  inFlight: InFlight;
  counts: PublishCounts;
  warn: (key: string, fields: Record<string, unknown>, message: string) => void;
  log: Logger;
  securityLog: Pick<SecurityLogService, 'recordRepeat'>;
  /** The agentId of the records the broker writes (known once it listens). */
  agentId: () => string;
}): NonNullable<AedesOptions['authorizePublish']> {
  /** A refused publish: a denial in the security log, folded per user, address and topic. */
  function deny(client: Client, s: Session, topic: string, reason: string): void {
    const ctx = publishContext(client.conn as Socket, client.id, client.version, topic);
    const { user } = s.principal;
    securityLog.recordRepeat(`mqtt-publish\0${user.id}\0${ctx.remoteAddress}\0${topic}`, 'access-denied', ctx, {
      login: user.login, userId: user.id, message: `MQTT PUBLISH ${ctx.requestLine.slice('MQTT PUBLISH '.length)}: ${reason}`, source: 'rights',
    });
  }

  function drop(packet: PublishPacket): void {
    packet.topic = DROPPED_TOPIC;
    packet.retain = false;
  }

  return (client, packet, done) => {
    // Only the will of a client from before a restart comes without one; nobody to attribute it to.
    if (!client) return done(null);
    if (packet.topic.startsWith('$')) {
      counts.reservedTopic++;
      warn('reserved-topic', { topic: packet.topic, clientId: client.id }, 'MQTT publish to a reserved ($) topic dropped');
      drop(packet);
      return done(null);
    }
    const session = sessions.get(client);
    const actor = sessions.actorFor(client);
    if (!session || !actor) return done(new Error('not signed in'));
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    // What the retained store held for the topic, to put back when the publish is not kept
    // (refused or too large): a refused user must neither fill the store nor empty it.
    const retainedBefore = packet.retain ? retained.before(packet.topic) : undefined;
    if (packet.retain && !retained.allow(packet.topic, payload.byteLength)) {
      // Delivered and recorded, but not kept for later subscribers.
      counts.retainRefused++;
      warn('retain-refused', { topic: packet.topic, clientId: client.id }, 'MQTT retained message not kept: the broker\'s retained store is full');
      packet.retain = false;
    }
    inFlight.begin();
    const topic = packet.topic;
    const accounted = packet.retain;
    handler.handle({
      // aedes reads none of the client's next packets until `done`, whatever the QoS: awaited.
      topic, payload, qos: packet.qos, retain: packet.retain, clientId: client.id, login: session.principal.user.login, awaited: true,
    }, actor, agentId(), (reason) => deny(client, session, topic, reason)).then((outcome) => {
      inFlight.end();
      if (accounted && (outcome === 'refused' || outcome === 'too-large')) retained.undo(topic, retainedBefore);
      if (outcome === 'refused') {
        counts.publishRefused++;
        drop(packet);
        // No PUBACK/PUBREC for a refused QoS 1/2 message: aedes closes the connection.
        if (packet.qos > 0) return done(new Error('not authorized to publish on this topic'));
      }
      if (outcome === 'too-large') drop(packet);
      if (outcome === 'shed' && packet.qos > 0) {
        if (accounted) retained.undo(topic, retainedBefore);
        counts.shedDisconnects++;
        return done(new Error('event log overloaded: message not acknowledged'));
      }
      done(null);
    }, (err: Error) => {
      inFlight.end();
      if (accounted) retained.undo(topic, retainedBefore);
      done(err);
    }).catch((err: unknown) => log.error({ err }, 'MQTT authorizePublish hook failed'));
  };
}
