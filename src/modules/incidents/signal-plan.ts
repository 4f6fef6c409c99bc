// From one intake batch of the engine's signals to the store's steps, in order: an active
// signal raises a new incident, or counts a repeat of the open one (reopening it if cleared);
// an inactive one clears the open incident. Pure: what is open is asked of `openId`, and an
// incident raised earlier in the same batch is referred to by its step (`ref`).
import type { IncidentSignal } from './incident-signal.js';
import type { IncidentReason, IncidentTarget, NewIncident, SignalOp, Suppression } from '../../storage/incidents-types.js';

/** Reason code of a signal that brings none: a condition matched. */
export const DEFAULT_REASON_CODE = 1;

export interface PlanDeps {
  /** The open incident of (entity, key), from the service's index. */
  openId(entityId: string, key: string): string | undefined;
  /** The entity's root cause record; undefined when the entity no longer exists. */
  rootCauseOf(signal: IncidentSignal): IncidentReason['rootCause'] | undefined;
  /** The level (an integer id) an active signal raises. */
  levelOf(signal: IncidentSignal): number;
  /** Why a new incident of the signal's entity is raised suppressed, if it is (suppression.ts). */
  suppressionOf?(signal: IncidentSignal): Suppression | undefined;
}

export interface Plan {
  ops: SignalOp[];
  /** For each step, the (entity, key) it concerns. */
  keys: Array<{ entityId: string; key: string }>;
}

export const indexKey = (entityId: string, key: string) => `${entityId}\u0000${key}`;

export function planSignals(signals: readonly IncidentSignal[], deps: PlanDeps): Plan {
  const ops: SignalOp[] = [];
  const keys: Plan['keys'] = [];
  const raisedHere = new Map<string, IncidentTarget>();
  for (const s of signals) {
    const k = indexKey(s.entityId, s.key);
    const open = deps.openId(s.entityId, s.key);
    const target: IncidentTarget | undefined = raisedHere.get(k) ?? (open === undefined ? undefined : { id: open });
    if (!s.active) {
      if (target) ops.push({ op: 'clear', target, timestamp: s.timestamp }), keys.push({ entityId: s.entityId, key: s.key });
      continue;
    }
    const level = deps.levelOf(s);
    if (target) {
      ops.push({ op: 'repeat', target, level, text: s.text, data: s.data, timestamp: s.timestamp, counts: s.levelChange !== true });
      keys.push({ entityId: s.entityId, key: s.key });
      continue;
    }
    const rootCause = deps.rootCauseOf(s);
    if (!rootCause) continue;
    const suppression = deps.suppressionOf?.(s);
    // Raised because something upstream is in trouble: the reason names that cause.
    const reason = suppression?.rootCause ? { code: s.reason?.code ?? DEFAULT_REASON_CODE, rootCause: suppression.rootCause } : s.reason ?? { code: DEFAULT_REASON_CODE, rootCause };
    const incident: NewIncident = {
      entityId: s.entityId,
      entityType: s.entityType,
      type: s.type,
      key: s.key,
      data: s.data ?? '',
      state: level,
      localTimestamp: null,
      reason,
      text: s.text ?? '',
      timestamp: s.timestamp,
      suppression: suppression ?? null,
    };
    raisedHere.set(k, { ref: ops.length });
    ops.push({ op: 'raise', incident });
    keys.push({ entityId: s.entityId, key: s.key });
  }
  return { ops, keys };
}
