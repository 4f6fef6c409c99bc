// The subscription to an external broker (config mqtt.external): its messages take the same
// path as the embedded broker's (message-handler.ts), as seen by an actor that sees and may
// change everything, since the operator chose that broker and its topics.
//
// The session is persistent (clean: false) and subscribed at QoS 1, and a QoS 1 message is
// acknowledged only once stored: while Vigil is down or a message failed, the external broker
// keeps it and delivers it again on the next connection. mqtt.js handles one packet at a time
// and sends PUBACK after `handleMessage` calls back, so QoS 1 messages are stored one after
// the other; QoS 0 ones (nothing to acknowledge) are handled up to MAX_PENDING at once.
//
// In a cluster (mqtt.external.shared) every node subscribes, so each message must reach one of them only: each node
// connects under its own client id (`<clientId>.<nodeId>`: one id on two nodes would have the
// broker take it over back and forth) and subscribes to `$share/<clientId>/<topic>`, MQTT's
// shared subscription (MQTT 5, and 3.1.1 in mosquitto 2, EMQX, HiveMQ), so the broker gives
// each message to one node of the group.
import mqtt from 'mqtt';
import { SEE_ALL } from '../../core/visibility.js';
import type { EntityActor } from '../../modules/catalog/access.js';
import { RIGHTS } from '../../modules/users/rights.js';
import { messageHandlerOf, type MqttDeps } from './broker.js';

export interface ExternalMqtt {
  /** The agentId of the records this subscription writes. */
  agentId: string;
  counters(): Record<string, number>;
  stop(): Promise<void>;
}

/** The operator configured the broker and its topics: its messages are trusted as an admin's. */
const OPERATOR: EntityActor = { userId: '0', rights: new Set(RIGHTS), visibility: SEE_ALL };

const MAX_PENDING = 1000;
const RECONNECT_MS = 5000;
const STOP_WAIT_MS = 2000;

type PublishPacket = Parameters<mqtt.MqttClient['handleMessage']>[0];

/** `mqtt-client@host:port` of the broker URL, with the scheme's default port when none is given. */
export function externalAgentId(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new Error(`mqtt.external.url: ${JSON.stringify(redacted(url))} is not a URL (mqtt://host:port)`);
  }
  const port = u.port || (u.protocol === 'mqtts:' || u.protocol === 'ssl:' ? '8883' : u.protocol === 'wss:' ? '443' : u.protocol === 'ws:' ? '80' : '1883');
  return `mqtt-client@${u.hostname}:${port}`;
}

/** What a node of a cluster subscribes to and as whom, so the nodes share the messages. */
export function sharedSubscription(clientId: string, topics: readonly string[], nodeId: string): { clientId: string; topics: string[] } {
  // The client id names the share group, a topic level: MQTT's separators and wildcards cannot be in it.
  if (/[/+#]/.test(clientId)) throw new Error(`mqtt.external.clientId ${JSON.stringify(clientId)}: with mqtt.external.shared it names the share group, which cannot hold "/", "+" or "#"`);
  return { clientId: `${clientId}.${nodeId}`, topics: topics.map((t) => `$share/${clientId}/${t}`) };
}

export async function startExternalMqtt(options: MqttDeps, tuning: { reconnectMs?: number; clusterNodeId?: string } = {}): Promise<ExternalMqtt> {
  const { settings } = options;
  const { url, username, password } = settings.external;
  // Records name the configured client id, on every node.
  const recordedClientId = settings.external.clientId;
  const { clientId, topics } = tuning.clusterNodeId === undefined
    ? settings.external
    : sharedSubscription(settings.external.clientId, settings.external.topics, tuning.clusterNodeId);
  const log = options.logger.child({ listener: 'mqtt-external', url: redacted(url) });
  const handler = messageHandlerOf({ ...options, logger: log });
  const agentId = externalAgentId(url);
  const counts = { connects: 0, disconnects: 0, errors: 0, redeliveryReconnects: 0 };
  const pending = new Set<Promise<unknown>>();

  // Not awaited: the server starts while the broker is unreachable, and mqtt.js keeps trying.
  const client = mqtt.connect(url, {
    clientId, username, password, clean: false, resubscribe: false, reconnectPeriod: tuning.reconnectMs ?? RECONNECT_MS, connectTimeout: 10_000,
  });

  client.on('connect', () => {
    counts.connects++;
    log.info({ topics }, 'connected to the external MQTT broker');
    client.subscribe(topics, { qos: 1 }, (err) => {
      if (err) log.error({ err }, 'subscribing on the external MQTT broker failed');
    });
  });
  client.on('close', () => counts.disconnects++);
  client.on('error', (err) => {
    counts.errors++;
    log.warn({ err: err.message }, 'external MQTT broker connection error');
  });

  /** Drops the connection so the broker delivers the unacknowledged message again after reconnecting. */
  function redeliver(reason: string): void {
    counts.redeliveryReconnects++;
    log.warn({ reason }, 'reconnecting to the external MQTT broker to have a message sent again');
    client.stream?.destroy();
  }

  client.handleMessage = (packet: PublishPacket, callback: (error?: Error) => void): void => {
    const payload = typeof packet.payload === 'string' ? Buffer.from(packet.payload) : packet.payload;
    // QoS 1: mqtt.js hands over the next message once this one's callback (the PUBACK) ran.
    const work = handler.handle({ topic: packet.topic, payload, qos: packet.qos, retain: packet.retain, clientId: recordedClientId, awaited: packet.qos > 0 }, OPERATOR, agentId);
    const acked = work.then((outcome) => {
      if (outcome === 'shed' && packet.qos > 0) throw new Error('event log overloaded');
    });
    if (packet.qos === 0) {
      const p = acked.catch(() => undefined).finally(() => pending.delete(p));
      pending.add(p);
      if (pending.size < MAX_PENDING) callback();
      else void p.then(() => callback());
      return;
    }
    acked.then(() => callback(), (err: Error) => {
      redeliver(err.message);
      callback(err);
    });
  };

  let stopping: Promise<void> | undefined;
  return {
    agentId,
    counters: () => ({ ...handler.counters(), ...counts, connected: client.connected ? 1 : 0 }),
    stop() {
      stopping ??= (async () => {
        const ended = client.endAsync(false);
        const timeout = new Promise<'timeout'>((r) => setTimeout(r, STOP_WAIT_MS, 'timeout').unref());
        if ((await Promise.race([ended, timeout])) === 'timeout') await client.endAsync(true);
        await Promise.allSettled([...pending]);
      })();
      return stopping;
    },
  };
}

/** The URL without its user info, for the log. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString();
  } catch {
    return '(unparsable URL)';
  }
}
