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
import { DEFAULT_MAX_NAME_LENGTH, flattenPayload, PayloadError, type ScalarValue } from '../metrics/flatten.js';

export const EVENT_PREFIX = 'event.';

export interface EventFacts {
  type: string;
  agentId: string;
  timestamp: number;
  payload: Record<string, unknown>;
}

export function eventValues(event: EventFacts): Record<string, ScalarValue> {
  const view: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const payload = event.payload;
  for (const key in payload) {
    if (!Object.hasOwn(payload, key)) continue;
    const value = payload[key];
    if (key !== 'bindings' || !Array.isArray(value)) {
      view[key] = value;
      continue;
    }
    // By OID, not by position: a condition names the binding it tests.
    const byOid: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const b of value) {
      if (typeof b === 'object' && b !== null && typeof (b as { oid?: unknown }).oid === 'string') {
        byOid[(b as { oid: string }).oid] = (b as { value?: unknown }).value ?? null;
      }
    }
    view.bindings = byOid;
  }
  view.type = event.type;
  view.agentId = event.agentId;
  view.timestamp = event.timestamp;
  try {
    // Flattened under `event` itself, so the names come out prefixed from flatten's name
    // cache: no string is joined and hashed afresh per event (a trap storm evaluates one
    // event per trap). The limit on a name is the same as for the unprefixed one.
    return flattenPayload({ event: view }, { maxNameLength: DEFAULT_MAX_NAME_LENGTH + EVENT_PREFIX.length }).values;
  } catch (err) {
    if (!(err instanceof PayloadError)) throw err;
    // Too big or odd to flatten whole: the scalar facts still serve conditions.
    const out: Record<string, ScalarValue> = Object.create(null) as Record<string, ScalarValue>;
    for (const [k, v] of Object.entries(view)) {
      if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[EVENT_PREFIX + k] = v as ScalarValue;
    }
    return out;
  }
}
