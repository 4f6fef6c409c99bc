// What comes after the first notice of an incident under a policy: repeats every repeatMinutes
// and escalation steps after afterMinutes, while the incident is active, not cleared, not
// acknowledged and not suppressed; and, with notifyOnClear, a notice when it clears. Each
// (incident, policy) pair is one follow-up, kept in the engine memory store (kind
// `notification`, under the incident's entity) so a restart continues it at its moments.
//
// One timer serves them all: it is armed for the earliest moment due, and when it fires every
// follow-up due within SLACK_MS is handled in the same pass (a storm's follow-ups, due within
// a second of each other, take a few passes, not thousands).
import type { Logger } from 'pino';
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import { MemoryWriter } from '../engine/memory-writer.js';
import { schedule } from '../triggers/schedule.js';
import type { IncidentFacts } from './message.js';
import type { Policy } from './policy-types.js';

const SLACK_MS = 250;
const MINUTE = 60_000;

export interface FollowUp {
  incidentId: string;
  policyId: string;
  facts: IncidentFacts;
  group: { id: string; name: string } | undefined;
  /** When the first notice went out (escalation steps count from it). */
  firstAt: number;
  /** When the next repeat is due (null: the policy repeats nothing). */
  nextRepeat: number | null;
  /** Escalation steps already sent (indices). */
  stepsDone: number[];
  acknowledged: boolean;
  suppressed: boolean;
}

/** What a due follow-up asks for. */
export type Due = { kind: 'repeat'; followUp: FollowUp; policy: Policy } | { kind: 'escalation'; followUp: FollowUp; policy: Policy; step: number };

export interface FollowUpDeps {
  memory?: EngineMemoryStore;
  clock: () => number;
  logger: Logger;
  policy(id: string): Policy | undefined;
  onDue(due: Due): void;
}

const keyOf = (incidentId: string, policyId: string) => `${incidentId}/${policyId}`;

/** Whether a policy follows up on its notices at all. */
export const followsUp = (p: Policy) => p.repeatMinutes !== null || p.escalation.length > 0 || p.notifyOnClear;

export function createFollowUps(deps: FollowUpDeps) {
  const { clock, logger } = deps;
  const all = new Map<string, FollowUp>();
  /** incident id → keys of its follow-ups. */
  const byIncident = new Map<string, Set<string>>();
  /** entity id → keys (the unit of the memory store). */
  const byEntity = new Map<string, Set<string>>();
  const memory = new MemoryWriter(deps.memory, (err) => logger.error({ err }, 'storing notification follow-ups failed'));
  let started = false;
  let stopped = false;
  let cancelTimer = () => undefined as void;
  let armedAt = Infinity;

  /** The next moment the follow-up wants something (Infinity: nothing, or paused). */
  function dueAt(f: FollowUp, p: Policy | undefined): number {
    if (!p || f.acknowledged || f.suppressed) return Infinity;
    let at = f.nextRepeat ?? Infinity;
    p.escalation.forEach((s, i) => {
      if (!f.stepsDone.includes(i)) at = Math.min(at, f.firstAt + s.afterMinutes * MINUTE);
    });
    return at;
  }

  function remember(entityId: string): void {
    const keys = byEntity.get(entityId);
    const items = keys ? [...keys].map((k) => all.get(k)!).map((f) => ({ key: keyOf(f.incidentId, f.policyId), at: Math.min(dueAt(f, deps.policy(f.policyId)), Number.MAX_SAFE_INTEGER), data: JSON.stringify(f) })) : [];
    memory.put({ kind: 'notification', entityId, items });
    void memory.flushSoon().catch(() => undefined);
  }

  function index(f: FollowUp): void {
    const key = keyOf(f.incidentId, f.policyId);
    all.set(key, f);
    let a = byIncident.get(f.incidentId);
    if (!a) byIncident.set(f.incidentId, (a = new Set()));
    a.add(key);
    let b = byEntity.get(f.facts.entityId);
    if (!b) byEntity.set(f.facts.entityId, (b = new Set()));
    b.add(key);
  }

  function unindex(key: string): FollowUp | undefined {
    const f = all.get(key);
    if (!f) return undefined;
    all.delete(key);
    byIncident.get(f.incidentId)?.delete(key);
    if (byIncident.get(f.incidentId)?.size === 0) byIncident.delete(f.incidentId);
    byEntity.get(f.facts.entityId)?.delete(key);
    if (byEntity.get(f.facts.entityId)?.size === 0) byEntity.delete(f.facts.entityId);
    return f;
  }

  /** Arms the one timer for the earliest due moment (if it moved earlier or the timer fired). */
  function arm(at: number): void {
    if (!started || stopped || at >= armedAt) return;
    cancelTimer();
    armedAt = at;
    cancelTimer = schedule(Math.max(0, at - clock()), pass);
  }

  function rearm(): void {
    let next = Infinity;
    for (const f of all.values()) next = Math.min(next, dueAt(f, deps.policy(f.policyId)));
    armedAt = Infinity;
    if (next < Infinity) arm(next);
  }

  /** Handles everything due now (or within the slack), then arms for the next. */
  function pass(): void {
    armedAt = Infinity;
    if (stopped) return;
    const now = clock();
    const horizon = now + SLACK_MS;
    const changed = new Set<string>();
    for (const [key, f] of all) {
      const p = deps.policy(f.policyId);
      if (!p || !p.enabled) {
        // The policy is gone or off: nothing more to follow up.
        unindex(key);
        changed.add(f.facts.entityId);
        continue;
      }
      if (dueAt(f, p) > horizon) continue;
      if (f.nextRepeat !== null && f.nextRepeat <= horizon) {
        if (p.repeatMinutes !== null) deps.onDue({ kind: 'repeat', followUp: f, policy: p });
        f.nextRepeat = p.repeatMinutes === null ? null : now + p.repeatMinutes * MINUTE;
        changed.add(f.facts.entityId);
      }
      p.escalation.forEach((s, i) => {
        if (f.stepsDone.includes(i) || f.firstAt + s.afterMinutes * MINUTE > horizon) return;
        f.stepsDone.push(i);
        deps.onDue({ kind: 'escalation', followUp: f, policy: p, step: i + 1 });
        changed.add(f.facts.entityId);
      });
    }
    for (const id of changed) remember(id);
    rearm();
  }

  return {
    /** Starts following up the notice just given (replacing an older follow-up of the pair). */
    /** `state`: the incident as it is now (an acknowledged one's repeats and escalations wait). */
    begin(policy: Policy, facts: IncidentFacts, group: FollowUp['group'], state: { acknowledged: boolean } = { acknowledged: false }): void {
      if (stopped || !followsUp(policy)) return;
      const now = clock();
      const f: FollowUp = {
        incidentId: facts.id, policyId: policy.id, facts, group, firstAt: now,
        nextRepeat: policy.repeatMinutes === null ? null : now + policy.repeatMinutes * MINUTE, stepsDone: [], acknowledged: state.acknowledged, suppressed: false,
      };
      index(f);
      remember(facts.entityId);
      arm(dueAt(f, policy));
    },

    /** The follow-ups of an incident (to update or end them). */
    of(incidentId: string): FollowUp[] {
      return [...(byIncident.get(incidentId) ?? [])].map((k) => all.get(k)!);
    },

    has: (incidentId: string, policyId: string) => all.has(keyOf(incidentId, policyId)),

    /** The incident changed (acknowledged, suppressed, its level): stored, and the timer moves. */
    update(incidentId: string, change: Partial<Pick<FollowUp, 'acknowledged' | 'suppressed' | 'facts'>>): void {
      const list = this.of(incidentId);
      if (list.length === 0) return;
      // Most events change nothing here (a repeat of the same level): no write, no timer work.
      const same = list.every((f) => (Object.keys(change) as Array<keyof typeof change>).every((k) => JSON.stringify(f[k]) === JSON.stringify(change[k])));
      if (same) return;
      for (const f of list) Object.assign(f, change);
      remember(list[0]!.facts.entityId);
      // Resumed (no longer acknowledged or suppressed): due again, maybe before the timer. A
      // pause needs nothing: the timer finds nothing due and arms for the next.
      for (const f of list) arm(dueAt(f, deps.policy(f.policyId)));
    },

    /** Ends the incident's follow-ups; answers them (for a notice on clearing). */
    end(incidentId: string): FollowUp[] {
      const keys = [...(byIncident.get(incidentId) ?? [])];
      const gone = keys.map(unindex).filter((f): f is FollowUp => f !== undefined);
      if (gone.length > 0) remember(gone[0]!.facts.entityId);
      return gone;
    },

    /** The entities were deleted: their follow-ups end, unsent. */
    forgetEntities(ids: readonly string[]): void {
      for (const id of ids) for (const key of [...(byEntity.get(id) ?? [])]) unindex(key);
      void memory.forget(ids).catch(() => undefined);
    },

    /** Reads the follow-ups stored before a restart (the timer runs from `start`). */
    async load(exists: (entityId: string) => boolean): Promise<FollowUp[]> {
      if (!deps.memory) return [];
      const gone: string[] = [];
      for (const entry of await deps.memory.load('notification')) {
        if (!exists(entry.entityId)) {
          gone.push(entry.entityId);
          continue;
        }
        for (const item of entry.items) if (item.data) index(JSON.parse(item.data) as FollowUp);
      }
      await memory.forget(gone);
      return [...all.values()];
    },

    start(): void {
      if (started || stopped) return;
      started = true;
      rearm();
    },

    get size(): number {
      return all.size;
    },

    async stop(): Promise<void> {
      stopped = true;
      cancelTimer();
      await memory.close();
    },
  };
}

export type FollowUps = ReturnType<typeof createFollowUps>;
