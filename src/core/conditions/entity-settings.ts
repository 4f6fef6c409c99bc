// The three condition-bearing documents of an entity's settings, checked when stored (PUT routes
// and bulk operations): state conditions, incident conditions and state triggers. Each validator
// returns a normalised copy (defaults filled, only known keys) that is what gets stored, or
// throws ConditionError naming the element at fault, e.g. "stateConditions[1].state: ...".
// Pure: state and incident-level ids are checked against sets the caller loads.
import { ConditionError, validateCondition, type Condition, type MatchCostTally } from './condition-syntax.js';

export interface StateCondition {
  condition: Condition;
  state: number;
  description: string;
}

export interface IncidentCondition {
  id: string;
  condition: Condition;
  /** Absent: the incident clears when `condition` stops holding (the evaluator's rule). */
  clearCondition?: Condition;
  text: string;
  /** Incident level id, always a string. */
  state: string;
}

export interface WebhookPayload {
  url: string;
  method: 'POST' | 'PUT';
  headers?: Record<string, string>;
  timeoutMs?: number;
}

export interface EmailPayload {
  /** Kept as written (one address or a list), so a stored document reads back unchanged. */
  to: string | string[];
  subject?: string;
}

interface TriggerCommon {
  states: number[];
  /** Milliseconds the entity must stay in one of `states` before the trigger fires. */
  duration: number;
}
export type WebhookTrigger = TriggerCommon & { type: 'webhook'; payload: WebhookPayload };
export type EmailTrigger = TriggerCommon & { type: 'e-mail'; payload: EmailPayload };
export type StateTrigger = WebhookTrigger | EmailTrigger;

export const SETTINGS_LIMITS = {
  maxItems: 1000,
  maxIdLength: 100,
  maxUrlLength: 2000,
  maxHeaders: 50,
  maxRecipients: 100,
  maxAddressLength: 254,
  maxSubjectLength: 1000,
  maxTimeoutMs: 60_000,
} as const;

type Doc = Record<string, unknown>;

function fail(path: string, problem: string): never {
  throw new ConditionError(`${path}: ${problem}`);
}

const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);
const isWhole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);

/** The array's items, refusing anything else and more than maxItems (every document's bound). */
function items(value: unknown, name: string): unknown[] {
  if (!Array.isArray(value)) fail(name, 'expected an array');
  if (value.length > SETTINGS_LIMITS.maxItems) fail(name, `more than ${SETTINGS_LIMITS.maxItems} items`);
  return value;
}

/**
 * An object holding no keys but `allowed`, read through own properties only, so a field that
 * is absent is undefined even if something has polluted Object.prototype.
 */
function fields(value: unknown, path: string, allowed: readonly string[]): (key: string) => unknown {
  if (!isObject(value)) fail(path, 'expected an object');
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(path, `unknown key ${key}`);
  return (key) => (Object.hasOwn(value, key) ? value[key] : undefined);
}

function optionalString(v: unknown, path: string): string {
  if (v !== undefined && typeof v !== 'string') fail(path, 'expected a string');
  return v ?? '';
}

function knownState(v: unknown, path: string, knownStates: ReadonlySet<number>): number {
  if (!isWhole(v)) fail(path, 'expected a whole-number state id');
  if (!knownStates.has(v)) fail(path, `unknown state ${v}`);
  return v;
}

function optionalDuration(v: unknown, path: string): number {
  if (v !== undefined && (!isWhole(v) || v < 0)) fail(path, 'expected a non-negative whole number of milliseconds');
  return v ?? 0;
}

export function validateStateConditions(value: unknown, knownStates: ReadonlySet<number>): StateCondition[] {
  // `_m` cost is bounded per document (condition-syntax.ts): one tally for all its conditions.
  const tally: MatchCostTally = { total: 0 };
  return items(value, 'stateConditions').map((item, i) => {
    const at = `stateConditions[${i}]`;
    const get = fields(item, at, ['condition', 'state', 'description']);
    return {
      condition: validateCondition(get('condition'), `${at}.condition`, tally),
      state: knownState(get('state'), `${at}.state`, knownStates),
      description: optionalString(get('description'), `${at}.description`),
    };
  });
}

export function validateIncidentConditions(value: unknown, knownLevels: ReadonlySet<string>): IncidentCondition[] {
  const list = items(value, 'incidentConditions');
  const tally: MatchCostTally = { total: 0 };
  const given: Array<string | undefined> = [];
  const used = new Set<string>();
  const out = list.map((item, i): Omit<IncidentCondition, 'id'> => {
    const at = `incidentConditions[${i}]`;
    const get = fields(item, at, ['id', 'condition', 'clearCondition', 'text', 'state']);
    const id = get('id');
    if (id !== undefined) {
      if (typeof id !== 'string' || id === '' || id.length > SETTINGS_LIMITS.maxIdLength) {
        fail(`${at}.id`, `expected a non-empty string of at most ${SETTINGS_LIMITS.maxIdLength} characters`);
      }
      if (used.has(id)) fail(`${at}.id`, `duplicate id ${JSON.stringify(id)}`);
      used.add(id);
    }
    given.push(id as string | undefined);
    let level = get('state');
    // Level ids are strings, but clients often send the number they see: take it as its string.
    if (typeof level === 'number' && Number.isFinite(level)) level = String(level);
    if (typeof level !== 'string') fail(`${at}.state`, 'expected an incident level id (string or number)');
    if (!knownLevels.has(level)) fail(`${at}.state`, `unknown incident level ${JSON.stringify(level)}`);
    const clear = get('clearCondition');
    return {
      condition: validateCondition(get('condition'), `${at}.condition`, tally),
      ...(clear === undefined ? {} : { clearCondition: validateCondition(clear, `${at}.clearCondition`, tally) }),
      text: optionalString(get('text'), `${at}.text`),
      state: level,
    };
  });
  // Given ids are kept, so references to them (open incidents) survive an edit; each missing
  // one, in order, takes the smallest positive integer string no other item holds.
  let next = 1;
  return out.map((rest, i) => {
    let id = given[i];
    if (id === undefined) {
      while (used.has(String(next))) next++;
      id = String(next);
      used.add(id);
    }
    return { id, ...rest };
  });
}

export function validateStateTriggers(value: unknown, knownStates: ReadonlySet<number>): StateTrigger[] {
  return items(value, 'stateTriggers').map((item, i): StateTrigger => {
    const at = `stateTriggers[${i}]`;
    const get = fields(item, at, ['type', 'payload', 'states', 'duration']);
    const type = get('type');
    if (type !== 'webhook' && type !== 'e-mail') fail(`${at}.type`, 'expected "webhook" or "e-mail"');
    const states = get('states');
    if (!Array.isArray(states) || states.length === 0) fail(`${at}.states`, 'expected a non-empty array of state ids');
    const seen = new Set<number>();
    for (const [j, s] of states.entries()) {
      const state = knownState(s, `${at}.states[${j}]`, knownStates);
      if (seen.has(state)) fail(`${at}.states[${j}]`, `duplicate state ${state}`);
      seen.add(state);
    }
    const common = { states: [...seen], duration: optionalDuration(get('duration'), `${at}.duration`) };
    return type === 'webhook'
      ? { type, payload: webhookPayload(get('payload'), `${at}.payload`), ...common }
      : { type, payload: emailPayload(get('payload'), `${at}.payload`), ...common };
  });
}

// RFC 9110 token characters: anything else in a header name is refused by fetch at send time,
// long after the user saved the trigger.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// CR, LF or NUL in a value would be header injection (fetch refuses them too).
const HEADER_VALUE_BAD = /[\r\n\0]/;

function webhookPayload(value: unknown, at: string): WebhookPayload {
  const get = fields(value, at, ['url', 'method', 'headers', 'timeoutMs']);
  const url = get('url');
  if (typeof url !== 'string' || url.length > SETTINGS_LIMITS.maxUrlLength) {
    fail(`${at}.url`, `expected a URL string of at most ${SETTINGS_LIMITS.maxUrlLength} characters`);
  }
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    return fail(`${at}.url`, 'invalid URL');
  }
  if (protocol !== 'http:' && protocol !== 'https:') fail(`${at}.url`, 'only http: and https: URLs are allowed');
  // null is refused like any other non-value (as for every optional field), not read as absent.
  const given = get('method');
  const method = given === undefined ? 'POST' : given;
  if (method !== 'POST' && method !== 'PUT') fail(`${at}.method`, 'expected "POST" or "PUT"');
  const out: WebhookPayload = { url, method };
  const headers = get('headers');
  if (headers !== undefined) {
    if (!isObject(headers)) fail(`${at}.headers`, 'expected an object of string values');
    const entries = Object.entries(headers);
    if (entries.length > SETTINGS_LIMITS.maxHeaders) fail(`${at}.headers`, `more than ${SETTINGS_LIMITS.maxHeaders} headers`);
    for (const [name, v] of entries) {
      if (!HEADER_NAME.test(name)) fail(`${at}.headers`, `invalid header name ${JSON.stringify(name)}`);
      if (typeof v !== 'string' || HEADER_VALUE_BAD.test(v)) fail(`${at}.headers.${name}`, 'expected a string without CR, LF or NUL');
    }
    out.headers = Object.fromEntries(entries) as Record<string, string>;
  }
  const timeoutMs = get('timeoutMs');
  if (timeoutMs !== undefined) {
    if (!isWhole(timeoutMs) || timeoutMs < 1 || timeoutMs > SETTINGS_LIMITS.maxTimeoutMs) {
      fail(`${at}.timeoutMs`, `expected a whole number of milliseconds from 1 to ${SETTINGS_LIMITS.maxTimeoutMs}`);
    }
    out.timeoutMs = timeoutMs;
  }
  return out;
}

// One @ with text on both sides; no white space, control characters or list/display-name
// punctuation, so one entry cannot become several recipients or inject a mail header.
const ADDRESS = /^[^@\s\x00-\x1f\x7f,;<>"]+@[^@\s\x00-\x1f\x7f,;<>"]+$/;

function emailPayload(value: unknown, at: string): EmailPayload {
  const get = fields(value, at, ['to', 'subject']);
  const to = get('to');
  const address = (v: unknown, path: string): string => {
    if (typeof v !== 'string' || v.length > SETTINGS_LIMITS.maxAddressLength || !ADDRESS.test(v)) {
      fail(path, `expected an e-mail address, got ${JSON.stringify(v)?.slice(0, 100)}`);
    }
    return v;
  };
  let outTo: string | string[];
  if (Array.isArray(to)) {
    if (to.length === 0 || to.length > SETTINGS_LIMITS.maxRecipients) {
      fail(`${at}.to`, `expected 1 to ${SETTINGS_LIMITS.maxRecipients} addresses`);
    }
    outTo = to.map((v, i) => address(v, `${at}.to[${i}]`));
  } else {
    outTo = address(to, `${at}.to`);
  }
  const out: EmailPayload = { to: outTo };
  const subject = get('subject');
  if (subject !== undefined) {
    if (typeof subject !== 'string' || subject.length > SETTINGS_LIMITS.maxSubjectLength || /[\x00-\x1f\x7f]/.test(subject)) {
      fail(`${at}.subject`, `expected a single-line string of at most ${SETTINGS_LIMITS.maxSubjectLength} characters`);
    }
    out.subject = subject;
  }
  return out;
}
