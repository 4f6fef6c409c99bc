// Filling the event log to a size through its store (bench:event-log-scale): records shaped
// as the trap and MQTT listeners make them, 60 % traps and 40 % MQTT messages, 80 % of them
// belonging to one of the bench's objects, timestamps spread over the time before now. Filling
// through the listeners would take hours at 5,000,000 records; the measured rounds still go
// through them.
import type { EventLogStore, NewEventRecord } from '../../src/storage/event-log-types.js';

export interface FillEntity { id: string; name: string; ip: string }

const LINK_DOWN = '1.3.6.1.6.3.1.1.5.3';
/** One trap in 1,000 carries it: the bench's filter by a rare trap OID. */
export const RARE_OID = '1.3.6.1.4.1.99999.0.7';
/** Senders that match no object: 127.0.2.1 and up. */
export const UNMATCHED_SOURCES = 50;
const FILL_SPACING_MS = 100;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

function fillRecord(i: number, ts: number, entities: FillEntity[], seed: number): NewEventRecord {
  const h = Math.imul(i ^ seed, 2654435761) >>> 0;
  const e = h % 10 < 8 ? entities[h % entities.length]! : undefined;
  const entity = e ? { entityId: e.id, entityType: 1 as const, entityName: e.name } : null;
  if (h % 5 < 3) {
    const oid = h % 1000 === 7 ? RARE_OID : ['1.3.6.1.6.3.1.1.5.3', '1.3.6.1.6.3.1.1.5.4', '1.3.6.1.6.3.1.1.5.1', '1.3.6.1.4.1.9.9.41.2.0.1'][h % 4]!;
    const sender = e ? e.ip : `127.0.2.${1 + (h % UNMATCHED_SOURCES)}`;
    return {
      timestamp: ts, type: 1, agentId: 'snmp-trap@bench:162', entity,
      payload: {
        senderAddress: sender, senderPort: 40000 + (h % 20000), version: '2c', pduType: 'trap', trapOid: oid, trapName: oid === LINK_DOWN ? 'linkDown' : undefined,
        bindings: [
          { oid: '1.3.6.1.2.1.2.2.1.1.2', type: 'Integer', value: 2 },
          { oid: '1.3.6.1.2.1.2.2.1.2.2', type: 'OctetString', value: 'GigabitEthernet0/2' },
          { oid: '1.3.6.1.2.1.2.2.1.8.2', type: 'Integer', value: 2 },
          { oid: '1.3.6.1.4.1.99999.1.0', type: 'Integer', value: i },
        ],
        text: `trap ${oid} from ${sender}`,
      },
    };
  }
  const topic = e ? `objects/${e.id}/stat` : `sensors/room-${h % 97}/temperature`;
  return {
    timestamp: ts, type: 2, agentId: 'mqtt-broker@bench:1883', entity,
    payload: { topic, message: { temperature: 20 + (h % 100) / 10, seq: i }, qos: h % 2, retain: false, clientId: `client-${h % 50}`, login: 'admin' },
  };
}

/** Appends `n` records with timestamps after `fromTs`, ending before now; returns records/s. */
export async function fill(store: EventLogStore, n: number, fromTs: number, entities: FillEntity[], seed: number): Promise<number> {
  const end = Date.now() - 60_000;
  const start = Math.max(fromTs + 1, end - n * FILL_SPACING_MS);
  const step = (end - start) / Math.max(1, n);
  const t0 = performance.now();
  for (let i = 0; i < n; i += 5000) {
    const batch: NewEventRecord[] = [];
    for (let j = i; j < Math.min(n, i + 5000); j++) batch.push(fillRecord(j, Math.floor(start + j * step), entities, seed));
    await store.append(batch);
    if (i % 500_000 === 0 && i > 0) process.stdout.write(`    filled ${fmt(i)} (${fmt(i / ((performance.now() - t0) / 1000))}/s)\n`);
  }
  return n / ((performance.now() - t0) / 1000);
}

