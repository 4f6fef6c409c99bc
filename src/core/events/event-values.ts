// What state and incident conditions see of an entity's latest event (a trap or an MQTT
// message about it): flat names under `event.`, beside the entity's measurements.
//
//   event.type           "snmp-trap" | "mqtt-message"
//   event.timestamp      when it was received (ms)
//   event.agentId        which receiver took it
//   traps:   event.trapOid, event.text, event.senderAddress,
//            event.bindings.<oid> = the binding's readable value
//   MQTT:    event.topic, event.clientId, event.qos, event.retain,
//            event.message (text) or event.message.<path> (a JSON message, flattened)
//
// A condition such as {"event.trapOid": {"_eq": "1.3.6.1.6.3.1.1.5.3"}} holds while the latest event
// is a linkDown trap. Bounded as stat payloads are (flatten.ts); what does not fit is left out.
import { flattenPayload, PayloadError, type ScalarValue } from '../metrics/flatten.js';

export const EVENT_PREFIX = 'event.';

export interface EventFacts {
  type: string;
  agentId: string;
  timestamp: number;
  payload: Record<string, unknown>;
}

export function eventValues(event: EventFacts): Record<string, ScalarValue> {
  const { bindings, ...rest } = event.payload;
  const view: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  Object.assign(view, rest);
  if (Array.isArray(bindings)) {
    // By OID, not by position: a condition names the binding it tests.
    const byOid: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const b of bindings) {
      if (typeof b === 'object' && b !== null && typeof (b as { oid?: unknown }).oid === 'string') {
        byOid[(b as { oid: string }).oid] = (b as { value?: unknown }).value ?? null;
      }
    }
    view.bindings = byOid;
  }
  view.type = event.type;
  view.agentId = event.agentId;
  view.timestamp = event.timestamp;
  const out: Record<string, ScalarValue> = Object.create(null) as Record<string, ScalarValue>;
  let values: Record<string, ScalarValue>;
  try {
    values = flattenPayload(view).values;
  } catch (err) {
    if (!(err instanceof PayloadError)) throw err;
    // Too big or odd to flatten whole: the scalar facts still serve conditions.
    values = Object.create(null) as Record<string, ScalarValue>;
    for (const [k, v] of Object.entries(view)) {
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) values[k] = v as ScalarValue;
    }
  }
  for (const key in values) out[EVENT_PREFIX + key] = values[key]!;
  return out;
}
