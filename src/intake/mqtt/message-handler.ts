// The one way an MQTT message enters the server, whether the embedded broker took it from a
// client or the subscription to an external broker received it: an event-log record of type
// `mqtt-message`, and for `<objects|links>/<id>/stat` with a JSON object body also the
// measurements, exactly as POST /<prefix>/:id/stat takes them. It resolves once both are
// stored, so a QoS 1/2 acknowledgement sent after it is a promise kept across a restart.
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { EntityActor } from '../../modules/catalog/access.js';
import type { Catalog, MemEntity } from '../../modules/catalog/catalog.js';
import type { StatService } from '../stat-push.js';
import type { EventIntake } from '../event-intake.js';
import { entityTopic, type EntityTopic } from './entity-topic.js';
import { createLogThrottle } from '../log-throttle.js';
import { decodeMessage } from './message-body.js';
import { publishRefusal } from './topic-rights.js';

export interface MqttMessage {
  topic: string;
  payload: Uint8Array;
  qos: 0 | 1 | 2;
  retain: boolean;
  /** The publishing client's id (for an external broker: the id Vigil subscribes with). */
  clientId: string;
  /** The login the publisher signed in with, when known. */
  login?: string;
  /**
   * The sender reads or sends nothing more until this message is stored (aedes does not read a
   * client's next packets before the publish hook is done; an external broker waits for the
   * PUBACK of a QoS 1 message): the event log then writes it without waiting for more.
   */
  awaited?: boolean;
}

/**
 * stored: recorded (and measured, if a stat topic); shed: the event log was overloaded and
 * dropped the record; refused: the actor lacks the topic's right (topic-rights.ts), or the
 * topic names an entity it may not change or that does not exist: nothing stored;
 * too-large: only a record saying so was stored (the message itself is not kept or forwarded).
 */
export type Outcome = 'stored' | 'shed' | 'refused' | 'too-large';

export interface MessageHandlerDeps {
  catalog: Catalog;
  stat: StatService;
  events: EventIntake;
  logger: Logger;
  maxPayloadBytes: number;
  jsonMaxDepth: number;
  clock: () => number;
}

const PREFIX = { 1: 'objects', 2: 'links' } as const;

export function createMessageHandler({ catalog, stat, events, logger, maxPayloadBytes, jsonMaxDepth, clock }: MessageHandlerDeps) {
  const counts = { messages: 0, stored: 0, shed: 0, refused: 0, tooLarge: 0, measurements: 0, statInvalid: 0, failed: 0 };
  const warn = createLogThrottle(logger);

  function entityOf(t: EntityTopic): MemEntity | undefined {
    const e = catalog.entity(t.id);
    return e && e.entityType === t.entityType ? e : undefined;
  }

  /** Starts the measurement push of a stat message; the reason when the body cannot be one. */
  function pushStat(actor: EntityActor, entity: MemEntity, body: ReturnType<typeof decodeMessage>): { done?: Promise<void>; error?: string } {
    if (body.kind !== 'json') return { error: body.kind === 'text' && body.reason ? body.reason : 'expected a JSON object of measurements' };
    try {
      return { done: stat.push(actor, entity, body.message) };
    } catch (err) {
      // The same checks as the HTTP route (shape, timestamp, size): a bad message is an
      // event worth keeping, not a reason to drop the client.
      if (err instanceof AppError) return { error: err.message };
      throw err;
    }
  }

  /** `refused` hears why, when the outcome is 'refused' (the broker logs it as a denial). */
  async function handle(msg: MqttMessage, actor: EntityActor, agentId: string, refused?: (reason: string) => void): Promise<Outcome> {
    counts.messages++;
    const topic = entityTopic(msg.topic);
    const entity = topic && entityOf(topic);
    // Measurements need the right to change the entity, as over HTTP; so does any other message
    // on an entity's topic: it becomes that entity's latest event, which its conditions test
    // (a user who may only see an object, the root for instance, must not raise its incidents).
    const refusal = publishRefusal(actor, topic, entity);
    if (refusal !== undefined) {
      counts.refused++;
      warn('refused', { topic: msg.topic, clientId: msg.clientId, login: msg.login, reason: refusal }, 'MQTT message refused');
      refused?.(refusal);
      return 'refused';
    }
    const base = {
      topic: msg.topic, qos: msg.qos, retain: msg.retain, clientId: msg.clientId, ...(msg.login !== undefined ? { login: msg.login } : {}),
    };
    const timestamp = clock();
    const awaited = { awaited: msg.awaited ?? false };

    if (msg.payload.byteLength > maxPayloadBytes) {
      counts.tooLarge++;
      warn('too-large', { ...base, size: msg.payload.byteLength }, 'MQTT message larger than mqtt.maxPayloadBytes dropped');
      const stored = await events.accept({
        type: 'mqtt-message', agentId, timestamp, entity,
        payload: { ...base, message: null, size: msg.payload.byteLength, dropped: `payload larger than ${maxPayloadBytes} bytes` },
      }, awaited);
      if (!stored) counts.shed++;
      return 'too-large';
    }

    const body = decodeMessage(msg.payload, jsonMaxDepth);
    const measured = topic?.isStat && entity ? pushStat(actor, entity, body) : {};
    if (measured.error !== undefined) {
      counts.statInvalid++;
      warn('stat-invalid', { topic: msg.topic, clientId: msg.clientId, reason: measured.error }, 'MQTT stat message not taken as measurements');
    }
    const payload: Record<string, unknown> = { ...base, message: body.message };
    if (body.kind === 'binary') payload.encoding = body.encoding;
    if (measured.error !== undefined) payload.statError = measured.error;
    const recorded = events.accept({ type: 'mqtt-message', agentId, timestamp, payload, entity }, awaited);
    let stored: boolean;
    try {
      // accept() never rejects; only the measurements' storage can fail.
      if (measured.done) await measured.done;
      stored = await recorded;
    } catch (err) {
      // Only storage can fail here; the caller must not acknowledge the message.
      counts.failed++;
      logger.error({ err, topic: msg.topic, entity: topic && `${PREFIX[topic.entityType]}/${topic.id}` }, 'storing MQTT measurements failed');
      throw err;
    }
    if (measured.done) counts.measurements++;
    if (!stored) {
      counts.shed++;
      return 'shed';
    }
    counts.stored++;
    return 'stored';
  }

  return {
    handle,
    counters: (): Record<string, number> => ({ ...counts }),
  };
}

export type MessageHandler = ReturnType<typeof createMessageHandler>;
