// Turning own-state changes into what follows from them: the states they propagate up the
// tree, stored state history and own-state records, live events, and type-1 incident signals.
import type { IncidentCondition } from '../../core/conditions/entity-settings.js';
import { stateIncidentEdge } from '../../core/incidents/incident-edges.js';
import type { ScalarValue as Scalar } from '../../core/metrics/flatten.js';
import { CHILD_STATE } from '../../core/states/state-selection.js';
import type { StatePropagation } from '../../core/states/state-propagation.js';
import type { CatalogWrite, EntityStateRow, StateChangeRow } from '../../storage/catalog-types.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { EventBus, StateReason } from '../live/event-bus.js';
import { ENGINE_ORIGIN, type IncidentSink, type Own, type OwnChange } from './engine-types.js';

export function createStateCommitter({ catalog, propagation, incidents, bus, stateLevels, ownOf, incidentConditions, dataOf, rootCause }: {
  catalog: Catalog;
  propagation: StatePropagation;
  incidents: IncidentSink;
  bus: EventBus;
  stateLevels: Readonly<Record<string, string>>;
  ownOf: (id: string) => Own;
  incidentConditions: (id: string) => IncidentCondition[] | undefined;
  dataOf: (id: string) => Record<string, Scalar>;
  rootCause: (e: MemEntity) => { entityId: string; entityType: 1 | 2; entityName: string };
}) {
  /**
   * Stores own-state changes and what they propagate; then events and incident signals.
   * `extra` writes (a manual-state document) go in the same transaction as the states.
   */
  async function commit(changes: OwnChange[], signals: IncidentSignal[], now: number, extra: readonly CatalogWrite[] = []): Promise<void> {
    const rows: StateChangeRow[] = [];
    const ownRows: EntityStateRow[] = [];
    for (const c of changes) {
      const o = ownOf(c.entity.id);
      ownRows.push({ entity_id: c.entity.id, auto_state: o.auto, manual_state: o.manual, data_at: null });
      if (c.entity.entityType === 2) {
        rows.push({ entityId: c.entity.id, stateId: c.to, previousStateId: catalog.entity(c.entity.id)?.state_id ?? c.entity.state_id, timestamp: now, reason: c.reason });
      } else {
        for (const p of propagation.setOwn(c.entity.id, c.to)) {
          const cause = p.cause === undefined ? undefined : catalog.entity(p.cause);
          const reason: StateReason = cause ? { code: CHILD_STATE, rootCause: rootCause(cause) } : c.reason;
          rows.push({ entityId: p.id, stateId: p.to, previousStateId: p.from, timestamp: now, reason });
        }
      }
      // Type 1: an entity with incident conditions raises only those.
      if (!incidentConditions(c.entity.id)?.length) {
        const edge = stateIncidentEdge(c.from, c.to, stateLevels);
        if (edge) {
          const stateName = catalog.state(c.to)?.name ?? String(c.to);
          signals.push({
            entityId: c.entity.id, entityType: c.entity.entityType, key: 'state', type: 1, active: edge.active,
            ...(edge.active && Object.hasOwn(stateLevels, String(c.from)) ? { levelChange: true } : {}),
            ...(edge.active ? { level: edge.level, text: `${c.entity.name}: ${stateName}` } : {}),
            data: JSON.stringify(dataOf(c.entity.id)), reason: { code: c.reason.code, rootCause: rootCause(c.entity) }, timestamp: now,
          });
        }
      }
    }
    await storeChanges(rows, ownRows, extra);
    if (signals.length > 0) await incidents.signals(signals);
  }

  /** Stores shown-state changes (with their history) and own-state records; then tells the bus. */
  async function storeChanges(rows: StateChangeRow[], ownRows: EntityStateRow[], extra: readonly CatalogWrite[] = []): Promise<void> {
    if (rows.length > 0 || ownRows.length > 0 || extra.length > 0) {
      const stored = await catalog.mutate(() => {
        // Entities deleted meanwhile are left out (their rows went with them).
        const write: CatalogWrite = {
          op: 'setStates',
          changes: rows.filter((r) => catalog.entity(r.entityId) !== undefined),
          own: ownRows.filter((r) => catalog.entity(r.entity_id) !== undefined),
        };
        const writes: CatalogWrite[] = write.changes.length + write.own.length > 0 ? [write] : [];
        for (const w of extra) {
          if (w.op === 'setStates') writes.push({ ...w, own: w.own.filter((r) => catalog.entity(r.entity_id) !== undefined) });
          else if (w.op === 'putSetting' || w.op === 'deleteSetting') {
            if (catalog.entity(w.op === 'putSetting' ? w.row.entity_id : w.entityId)) writes.push(w);
          }
        }
        return { writes, result: write.changes };
      }, { origin: ENGINE_ORIGIN });
      for (const r of stored) {
        const e = catalog.entity(r.entityId);
        if (!e) continue;
        bus.publish({
          type: 'state', entityId: e.id, entityType: e.entityType, entityName: e.name, stateId: r.stateId, previousStateId: r.previousStateId, reason: r.reason, timestamp: r.timestamp,
        });
      }
    }
  }

  return { commit, storeChanges };
}
