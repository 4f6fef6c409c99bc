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

// Keys that would reach Object.prototype in naive consumers of the names (merges, lodash.set);
// also the standard intakes' name check (modules/ingest/metric-name.ts), so the two cannot drift.
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

interface Walk {
  numbers: Array<[string, number]>;
  values: Record<string, ScalarValue>;
  count: number;
  /** A dotted key was seen: from then on names may collide and are checked. */
  dotted: boolean;
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
    dotted: false,
    maxMetrics: limits.maxMetrics ?? DEFAULT_MAX_METRICS,
    maxNameLength: limits.maxNameLength ?? DEFAULT_MAX_NAME_LENGTH,
  };
  walkObject(walk, payload as Record<string, unknown>, nameRoot);
  return { numbers: walk.numbers, values: walk.values };
}

function walkObject(walk: Walk, obj: Record<string, unknown>, parent: NameNode): void {
  // for-in walks JSON objects from V8's enum cache without allocating a key array.
  for (const key in obj) if (Object.hasOwn(obj, key)) visit(walk, child(parent, key), obj[key]);
}

// Agents send the same names push after push. Remembering the joined name strings saves
// the concatenation, and above all the hashing and internalising a fresh string costs each
// time it becomes a property key: most of the cost of a flatten. The names form a tree
// (one lookup per key), and only checked keys get in. Bounded: a sender inventing names
// cannot grow it past NAME_CACHE_MAX names of at most DEFAULT_MAX_NAME_LENGTH characters;
// it then starts again from an empty tree.
interface NameNode {
  name: string;
  /** Some key on the way here had a dot in it, so this name may also be spelt another way. */
  dotted: boolean;
  /** The cache generation the node belongs to; nodes of older ones get no new children. */
  gen: number;
  keys: Map<string, NameNode> | undefined;
  items: NameNode[] | undefined;
}

const NAME_CACHE_MAX = 50_000;
let generation = 0;
let nameRoot = newRoot();
let nameCacheSize = 0;

function newRoot(): NameNode {
  return { name: '', dotted: false, gen: generation, keys: undefined, items: undefined };
}

/** Whether `node` may be kept under `parent`; when the cache is full, starts a new one. */
function remember(parent: NameNode, node: NameNode): boolean {
  // A detached parent (older generation) must not grow: a payload of a million empty
  // arrays would otherwise keep a million nodes alive while it is walked.
  if (parent.gen !== generation || node.name.length > DEFAULT_MAX_NAME_LENGTH) return false;
  if (nameCacheSize >= NAME_CACHE_MAX) {
    generation++;
    nameRoot = newRoot();
    nameCacheSize = 0;
    return false;
  }
  nameCacheSize++;
  return true;
}

function child(parent: NameNode, key: string): NameNode {
  const known = parent.keys?.get(key);
  if (known !== undefined) return known;
  // A comma could never be asked for: `metrics=a,b` lists names split on commas.
  if (key === '' || FORBIDDEN_KEYS.has(key) || key.includes(',') || (key.includes('.') && !dottedKeyOk(key))) refuseKey(key, parent.name);
  const node: NameNode = {
    name: parent.name === '' ? key : parent.name + '.' + key,
    dotted: parent.dotted || key.includes('.'),
    gen: parent.gen,
    keys: undefined,
    items: undefined,
  };
  if (remember(parent, node)) (parent.keys ??= new Map()).set(key, node);
  return node;
}

function item(parent: NameNode, i: number): NameNode {
  const known = parent.items?.[i];
  if (known !== undefined) return known;
  const node: NameNode = {
    name: `${parent.name}.${i}`,
    dotted: parent.dotted,
    gen: parent.gen,
    keys: undefined,
    items: undefined,
  };
  if (remember(parent, node)) (parent.items ??= [])[i] = node;
  return node;
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
  const at = prefix === '' ? 'at the top level' : `under ${show(prefix)}`;
  const what =
    key === ''
      ? 'empty key'
      : FORBIDDEN_KEYS.has(key)
        ? `key ${show(key)} is not allowed`
        : key.includes(',')
          ? `key ${show(key)} holds a comma (metric lists are comma-separated)`
        : `key ${show(key)} has an empty or forbidden segment`;
  throw new PayloadError(`${what} ${at}`, prefix === '' ? key : `${prefix}.${key}`);
}

function visit(walk: Walk, node: NameNode, value: unknown): void {
  const name = node.name;
  // Checked on the way down too, so each level of nesting costs at least two characters:
  // the name limit also bounds the recursion depth.
  if (name.length > walk.maxNameLength) {
    throw new PayloadError(`metric name ${show(name)} is longer than ${walk.maxNameLength} characters`, name);
  }
  switch (typeof value) {
    case 'number':
      if (!Number.isFinite(value)) throw new PayloadError(`${show(name)}: ${value} is not a finite number`, name);
      record(walk, node, value);
      walk.numbers.push([name, value]);
      return;
    case 'string':
    case 'boolean':
      record(walk, node, value);
      return;
    case 'object':
      if (value === null) record(walk, node, null);
      else if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) visit(walk, item(node, i), value[i]);
      } else walkObject(walk, value as Record<string, unknown>, node);
      return;
    default:
      // Only reachable with payloads built in code (MQTT decoders, tests), not parsed JSON.
      throw new PayloadError(`${show(name)}: ${typeName(value)} is not a JSON value`, name);
  }
}

function record(walk: Walk, node: NameNode, value: ScalarValue): void {
  const name = node.name;
  if (++walk.count > walk.maxMetrics) {
    throw new PayloadError(`the payload has more than ${walk.maxMetrics} values (at ${show(name)})`, name);
  }
  // `{"a.b":1,"a":{"b":2}}` names one metric twice: refuse rather than keep either silently.
  // Without a dotted key so far, names are distinct by construction and the lookup is saved.
  if (node.dotted) walk.dotted = true;
  if (walk.dotted && name in walk.values) throw new PayloadError(`metric ${show(name)} appears twice`, name);
  walk.values[name] = value;
}

function typeName(value: unknown): string {
  return value === undefined ? 'undefined' : `a ${typeof value}`;
}

/** Quotes a name for a message, cut short so a hostile name is not echoed in full. */
function show(name: string): string {
  return JSON.stringify(name.length > 80 ? name.slice(0, 80) + '…' : name);
}
