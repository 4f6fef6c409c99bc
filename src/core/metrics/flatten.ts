/**
 * Flattens a stat payload (any JSON object) into metric names and values: nested keys join
 * with dots (`{"cpu":{"load1":1.9}}` → `cpu.load1`), array elements by index
 * (`disks.0.free`). Numbers go to `numbers` (they feed history); every scalar goes to
 * `values` (what conditions test). Hostile input is refused with a PayloadError naming the
 * key, never half-accepted.
 */

export type ScalarValue = string | number | boolean | null;

export interface FlattenLimits {
  /** Most scalars one payload may carry (default 1000). */
  maxMetrics?: number;
  /** Longest flattened name, in UTF-16 code units (default 200). */
  maxNameLength?: number;
}

export interface FlatPayload {
  /** Numeric metrics in payload order: what goes into history. */
  numbers: Array<[string, number]>;
  /** Every scalar by flattened name; a null-prototype object, safe for any key. */
  values: Record<string, ScalarValue>;
}

export class PayloadError extends Error {
  override name = 'PayloadError';
  constructor(
    message: string,
    /** The flattened name at fault, when there is one. */
    readonly key?: string,
  ) {
    super(message);
  }
}

export const DEFAULT_MAX_METRICS = 1000;
export const DEFAULT_MAX_NAME_LENGTH = 200;

// Keys that would reach Object.prototype in naive consumers of the names (merges, lodash.set).
const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

interface Walk {
  numbers: Array<[string, number]>;
  values: Record<string, ScalarValue>;
  count: number;
  maxMetrics: number;
  maxNameLength: number;
}

export function flattenPayload(payload: unknown, limits: FlattenLimits = {}): FlatPayload {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    const what = payload === null ? 'null' : Array.isArray(payload) ? 'an array' : typeName(payload);
    throw new PayloadError(`a stat payload must be a JSON object, not ${what}`);
  }
  const walk: Walk = {
    numbers: [],
    values: Object.create(null) as Record<string, ScalarValue>,
    count: 0,
    maxMetrics: limits.maxMetrics ?? DEFAULT_MAX_METRICS,
    maxNameLength: limits.maxNameLength ?? DEFAULT_MAX_NAME_LENGTH,
  };
  walkObject(walk, payload as Record<string, unknown>, '');
  return { numbers: walk.numbers, values: walk.values };
}

function walkObject(walk: Walk, obj: Record<string, unknown>, prefix: string): void {
  for (const key of Object.keys(obj)) {
    if (key === '' || FORBIDDEN_KEYS.has(key) || (key.includes('.') && !dottedKeyOk(key))) refuseKey(key, prefix);
    visit(walk, prefix + key, obj[key]);
  }
}

/**
 * An agent may send names already dotted (`{"cpu.load1": 1}`); each segment must pass the
 * same checks as a nested key, since consumers split names on the dots.
 */
function dottedKeyOk(key: string): boolean {
  for (const segment of key.split('.')) if (segment === '' || FORBIDDEN_KEYS.has(segment)) return false;
  return true;
}

function refuseKey(key: string, prefix: string): never {
  const at = prefix === '' ? 'at the top level' : `under ${show(prefix.slice(0, -1))}`;
  const what = key === '' ? 'empty key' : FORBIDDEN_KEYS.has(key) ? `key ${show(key)} is not allowed` : `key ${show(key)} has an empty or forbidden segment`;
  throw new PayloadError(`${what} ${at}`, prefix + key);
}

function visit(walk: Walk, name: string, value: unknown): void {
  // Checked on the way down too, so each level of nesting costs at least two characters:
  // the name limit also bounds the recursion depth.
  if (name.length > walk.maxNameLength) {
    throw new PayloadError(`metric name ${show(name)} is longer than ${walk.maxNameLength} characters`, name);
  }
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new PayloadError(`${show(name)}: ${value} is not a finite number`, name);
      record(walk, name, value);
      walk.numbers.push([name, value]);
      return;
    case 'string':
    case 'boolean':
      record(walk, name, value);
      return;
    case 'object':
      if (value === null) record(walk, name, null);
      else if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) visit(walk, `${name}.${i}`, value[i]);
      } else walkObject(walk, value as Record<string, unknown>, name + '.');
      return;
    default:
      // Only reachable with payloads built in code (MQTT decoders, tests), not parsed JSON.
      throw new PayloadError(`${show(name)}: ${typeName(value)} is not a JSON value`, name);
  }
}

function record(walk: Walk, name: string, value: ScalarValue): void {
  if (++walk.count > walk.maxMetrics) {
    throw new PayloadError(`the payload has more than ${walk.maxMetrics} values (at ${show(name)})`, name);
  }
  // `{"a.b":1,"a":{"b":2}}` names one metric twice: refuse rather than keep either silently.
  if (name in walk.values) throw new PayloadError(`metric ${show(name)} appears twice`, name);
  walk.values[name] = value;
}

function typeName(value: unknown): string {
  return value === undefined ? 'undefined' : `a ${typeof value}`;
}

/** Quotes a name for a message, cut short so a hostile name is not echoed in full. */
function show(name: string): string {
  return JSON.stringify(name.length > 80 ? name.slice(0, 80) + '…' : name);
}
