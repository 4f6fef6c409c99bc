// Starts the listeners that take events from devices: the embedded MQTT broker, the
// subscription to an external broker, and the SNMP trap receiver. Each one is optional.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Services } from './services.js';
import { startMqttBroker, type MqttBroker, type MqttDeps } from './intake/mqtt/broker.js';
import { startExternalMqtt, type ExternalMqtt } from './intake/mqtt/external-client.js';
import { startTrapReceiver, type TrapReceiver } from './intake/snmp/trap-receiver.js';

export interface Listeners {
  /** The bound ports, when enabled. */
  mqttPort?: number;
  snmpTrapPort?: number;
  counters(): Record<string, Record<string, number>>;
  stop(): Promise<void>;
}

export async function startListeners(config: Readonly<Config>, services: Services, logger: Logger): Promise<Listeners> {
  const deps: MqttDeps = {
    auth: services.auth,
    actorOf: (p) => services.catalog.access.actorOf(p),
    catalog: services.catalog.catalog,
    stat: services.data.stat,
    events: services.events,
    logger,
    settings: config.mqtt,
    jsonMaxDepth: config.http.jsonMaxDepth,
    users: services.users,
    securityLog: services.securityLog,
  };
  let broker: MqttBroker | undefined;
  let external: ExternalMqtt | undefined;
  let traps: TrapReceiver | undefined;
  const stop = async () => {
    await Promise.all([broker?.stop(), external?.stop(), traps?.stop()]);
  };
  try {
    if (config.mqttPort !== 0) broker = await startMqttBroker({ ...deps, port: config.mqttPort, host: config.host });
    // In a cluster the nodes share the external broker's messages (opt-in: it changes the client
    // id, and brokers without shared subscriptions deliver nothing to `$share/...`).
    if (config.mqtt.external.url !== '') external = await startExternalMqtt(deps, config.mqtt.external.shared ? { clusterNodeId: services.cluster.nodeId } : {});
    if (config.snmpTrapPort !== 0) {
      traps = await startTrapReceiver({ port: config.snmpTrapPort, host: config.host, settings: config.snmp, events: services.events, logger });
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    mqttPort: broker?.port,
    snmpTrapPort: traps?.port,
    counters: () => ({
      ...(broker ? { mqtt: broker.counters() } : {}),
      ...(external ? { mqttExternal: external.counters() } : {}),
      ...(traps ? { snmpTraps: traps.counters() } : {}),
    }),
    stop,
  };
}
