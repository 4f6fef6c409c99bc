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
import { DEFAULT_MAX_METRICS, DEFAULT_MAX_NAME_LENGTH, flattenPayload, PayloadError, type ScalarValue } from '../metrics/flatten.js';

export const EVENT_PREFIX = 'event.';

export interface EventFacts {
  type: string;
  agentId: string;
  timestamp: number;
  payload: Record<string, unknown>;
}

/** The values conditions see: directly for the common flat shape (a trap), else by flattening. */
export function eventValues(event: EventFacts): Record<string, ScalarValue> {
  return flatValues(event) ?? flattenedValues(event);
}

/** Top-level names the direct path takes: no dot, comma or integer look (which reorders keys). */
const SIMPLE_KEY = /^(?!\d+$)[^.,]{1,200}$/;
/** A binding's OID as decoders give it: two or more numeric arcs. */
const OID_KEY = /^\d+(?:\.\d+)+$/;
const RESERVED = new Set(['type', 'agentId', 'timestamp', '__proto__', 'constructor', 'prototype']);
/** The longest OID whose name (`bindings.<oid>`) stays within flatten's limit. */
const MAX_OID_CHARS = DEFAULT_MAX_NAME_LENGTH - 'bindings.'.length;
/**
 * `event.<name>` strings of names already checked, so a storm of traps neither checks nor
 * joins and hashes them afresh (bounded: any sender may invent OIDs).
 */
const names = new Map<string, string>();
const bindingNames = new Map<string, string>();
const NAMES_MAX = 20_000;

function remembered(cache: Map<string, string>, key: string, name: string): string {
  if (cache.size >= NAMES_MAX) cache.clear();
  cache.set(key, name);
  return name;
}
/** The name of a top-level key, or undefined when the direct path does not take it. */
const eventName = (key: string): string | undefined =>
  names.get(key) ?? (RESERVED.has(key) || !SIMPLE_KEY.test(key) ? undefined : remembered(names, key, EVENT_PREFIX + key));
/** The name of a binding's OID, or undefined when the direct path does not take it. */
const bindingName = (oid: string): string | undefined =>
  bindingNames.get(oid) ?? (oid.length > MAX_OID_CHARS || !OID_KEY.test(oid) ? undefined : remembered(bindingNames, oid, `${EVENT_PREFIX}bindings.${oid}`));

const TYPE_NAME = `${EVENT_PREFIX}type`;
const AGENT_NAME = `${EVENT_PREFIX}agentId`;
const TIMESTAMP_NAME = `${EVENT_PREFIX}timestamp`;

const scalar = (v: unknown): v is ScalarValue =>
  v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * What flattenedValues answers, made directly, for a payload of scalars plus `bindings` with
 * plain OIDs and scalar values (every trap); undefined for any other shape, which is flattened.
 * Same names, values and key order (a raised incident stores them as JSON text).
 */
export function flatValues(event: EventFacts): Record<string, ScalarValue> | undefined {
  const payload = event.payload;
  const out: Record<string, ScalarValue> = Object.create(null) as Record<string, ScalarValue>;
  let count = 3;
  for (const key in payload) {
    if (!Object.hasOwn(payload, key)) continue;
    const value = payload[key];
    const name = eventName(key);
    if (name === undefined) return undefined;
    if (key !== 'bindings') {
      if (!scalar(value)) return undefined;
      out[name] = value;
      count++;
      continue;
    }
    if (!Array.isArray(value)) return undefined;
    for (const b of value) {
      if (typeof b !== 'object' || b === null) continue;
      const oid = (b as { oid?: unknown }).oid;
      if (typeof oid !== 'string') continue;
      const v = (b as { value?: unknown }).value ?? null;
      const name = bindingName(oid);
      if (name === undefined || !scalar(v)) return undefined;
      // A repeated OID keeps its first place and its last value, as the flattened view does.
      if (!(name in out)) count++;
      out[name] = v;
    }
  }
  if (count > DEFAULT_MAX_METRICS || !scalar(event.type) || !scalar(event.agentId) || !scalar(event.timestamp)) return undefined;
  out[TYPE_NAME] = event.type;
  out[AGENT_NAME] = event.agentId;
  out[TIMESTAMP_NAME] = event.timestamp;
  return out;
}

/** The general path: the payload flattened under `event` (nested objects, arrays, limits). */
export function flattenedValues(event: EventFacts): Record<string, ScalarValue> {
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
