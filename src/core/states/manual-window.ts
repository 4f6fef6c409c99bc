// A manual state with a window (the maintenance form of the manual state): held from `since`
// to `until` (null: until cleared), then the entity's computed state is back. Pure: given a
// window and a clock, what the manual state is and when that next changes; and the check of
// what a client sends (PUT .../manual-state).

export interface ManualWindow {
  stateId: number;
  /** Milliseconds. */
  since: number;
  /** Milliseconds; null: held until cleared. */
  until: number | null;
  /** The client's reason, kept with the state history records of the window. */
  text: string;
  /** Who set it (the state history names them when the window starts and ends). */
  userId: string;
}

export class ManualWindowError extends Error {
  override name = 'ManualWindowError';
}

export const MAX_REASON_LENGTH = 1000;

/** The manual state in force at `now`: the window's state while it runs, null otherwise. */
export function manualStateAt(w: ManualWindow, now: number): number | null {
  return now >= w.since && (w.until === null || now < w.until) ? w.stateId : null;
}

export const windowOver = (w: ManualWindow, now: number): boolean => w.until !== null && now >= w.until;

/** When the window next starts or ends after `now`; undefined when nothing is left to happen. */
export function nextBoundary(w: ManualWindow, now: number): number | undefined {
  if (now < w.since) return w.since;
  if (w.until !== null && now < w.until) return w.until;
  return undefined;
}

/** The reason (code 13, manual change) of a state change the window makes. */
export function windowReason(w: ManualWindow, ending: boolean): { code: 13; [detail: string]: unknown } {
  return {
    code: 13,
    userId: w.userId,
    ...(ending ? { cleared: true } : {}),
    ...(w.text !== '' ? { text: w.text } : {}),
    ...(w.until !== null ? { until: w.until } : {}),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Milliseconds, or an ISO 8601 date with a time (what scripts build with `isoformat()`). */
function moment(v: unknown, field: string): number {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v;
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) {
    const ms = Date.parse(v);
    if (Number.isFinite(ms) && ms >= 0) return ms;
  }
  throw new ManualWindowError(`${field}: expected milliseconds since 1970 or an ISO 8601 date-time`);
}

/**
 * The window a client asks for, or null when it clears the manual state (`stateId: null`).
 * `since` defaults to `now`; `until` must come after both `since` and `now` (a window already
 * over would change nothing).
 */
export function parseManualWindow(body: unknown, now: number, userId: string, knownStates: ReadonlySet<number>): ManualWindow | null {
  if (!isObject(body)) throw new ManualWindowError('body: expected {stateId, reason, since, until}');
  const known = ['stateId', 'reason', 'since', 'until'];
  for (const key of Object.keys(body)) if (!known.includes(key)) throw new ManualWindowError(`body.${key}: unknown field; known: ${known.join(', ')}`);
  const get = (k: string): unknown => (Object.hasOwn(body, k) ? body[k] : undefined);
  const stateId = get('stateId');
  if (stateId === null) return null;
  if (stateId === undefined) throw new ManualWindowError('body.stateId: required (a state id, or null to clear)');
  if (typeof stateId !== 'number' || !Number.isSafeInteger(stateId)) throw new ManualWindowError('body.stateId: expected a whole-number state id or null');
  if (!knownStates.has(stateId)) throw new ManualWindowError(`body.stateId: unknown state ${stateId}`);
  const reason = get('reason') ?? '';
  if (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH) throw new ManualWindowError(`body.reason: expected a string of at most ${MAX_REASON_LENGTH} characters`);
  const rawSince = get('since');
  const since = rawSince === undefined || rawSince === null ? now : moment(rawSince, 'body.since');
  const rawUntil = get('until');
  const until = rawUntil === undefined || rawUntil === null ? null : moment(rawUntil, 'body.until');
  if (until !== null && until <= since) throw new ManualWindowError('body.until: must come after since');
  if (until !== null && until <= now) throw new ManualWindowError('body.until: already past');
  return { stateId, since, until, text: reason, userId };
}
