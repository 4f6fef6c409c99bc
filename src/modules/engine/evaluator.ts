// Evaluating one entity: its condition documents (or the conditions its checks imply) on its
// latest measurements and event, against its own-state memory. Answers the change of its auto
// state (if the shown state moves) and adds incident signals of its incident conditions; sets
// when it must be evaluated again for a pending `_duration`. The decisions are core/'s.
import type { IncidentCondition, StateCondition } from '../../core/conditions/entity-settings.js';
import type { ScalarValue as Scalar } from '../../core/metrics/flatten.js';
import { conditionIncidentEdges } from '../../core/incidents/incident-edges.js';
import { selectState } from '../../core/states/state-selection.js';
import type { SettingKind } from '../../storage/catalog-types.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { StateReason } from '../live/event-bus.js';
import type { Own, OwnChange } from './engine-types.js';
import { shownOwn } from './own-states.js';

export interface EvaluatorDeps {
  /** The document that applies to the entity (its own, else its class's: catalog.effectiveSetting). */
  setting: (entityId: string, kind: SettingKind) => { value: unknown[] } | undefined;
  /** State conditions of an entity that has none of its own (those its checks imply). */
  implicitConditions?: (entityId: string) => StateCondition[] | undefined;
  /** The entity's latest values (measurements with its latest event's `event.*` over them). */
  dataOf: (id: string) => Record<string, Scalar>;
  ownOf: (id: string) => Own;
  /** Sets (a moment) or clears (undefined) the entity's next evaluation. */
  recheckAt: (id: string, at: number | undefined) => void;
}

export const rootCause = (e: MemEntity) => ({ entityId: e.id, entityType: e.entityType, entityName: e.name });

export function createEvaluator(deps: EvaluatorDeps) {
  const { ownOf, dataOf } = deps;
  const stateConditions = (id: string) => (deps.setting(id, 'stateConditions')?.value as StateCondition[] | undefined) ?? deps.implicitConditions?.(id);
  const incidentConditions = (id: string) => deps.setting(id, 'incidentConditions')?.value as IncidentCondition[] | undefined;

  /** Evaluates an entity's conditions on its latest data; returns its auto state change, if any. */
  function evaluate(entity: MemEntity, now: number, signals: IncidentSignal[]): OwnChange | undefined {
    const o = ownOf(entity.id);
    // Expired data says nothing any more; NoData (reason 15) stays until data comes, and
    // nothing is pending meanwhile (data that comes is evaluated anyway).
    if (o.expired) {
      deps.recheckAt(entity.id, undefined);
      return undefined;
    }
    const data = dataOf(entity.id);
    let next: number | undefined;
    let change: OwnChange | undefined;
    const sc = stateConditions(entity.id);
    if (sc && sc.length > 0) {
      const sel = selectState(sc, data, now, o.durations);
      next = sel.nextCheckAt;
      if (sel.stateId !== o.auto) {
        const before = shownOwn(o);
        o.auto = sel.stateId;
        o.autoReason = sel.reason as StateReason;
        if (shownOwn(o) !== before) change = { entity, from: before, to: shownOwn(o), reason: o.autoReason };
      }
    }
    const ic = incidentConditions(entity.id);
    if (ic && ic.length > 0) {
      const edges = conditionIncidentEdges(ic, data, now, o.durations, o.raised);
      if (edges.nextCheckAt !== undefined && (next === undefined || edges.nextCheckAt < next)) next = edges.nextCheckAt;
      for (const s of edges.signals) {
        signals.push({
          entityId: entity.id, entityType: entity.entityType, key: s.key, type: 2, active: s.active, level: s.level, text: s.text,
          data: JSON.stringify(data), reason: { code: 2, rootCause: rootCause(entity) }, timestamp: now,
        });
      }
    }
    deps.recheckAt(entity.id, next);
    return change;
  }

  return { evaluate, stateConditions, incidentConditions };
}
