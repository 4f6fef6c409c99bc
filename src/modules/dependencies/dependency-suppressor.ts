// Dependencies and root cause (issue 20): an incident on an entity whose cause upstream is
// already in trouble is raised suppressed (kind dependency) with `reason.rootCause` naming the
// topmost such cause, and notifies nobody. A cause is a parent (unless the entity's
// `dependencies` document says parents: false; a link's parents are its two ends) or a declared
// dependency; it is in trouble while Down on its own (state 8 not merely propagated up from a
// child: a parent that is Down because this child is cannot be its cause) or while it has an
// active, not cleared incident of level priority at or above the dependant's minLevel.
//
// The index (dependency-index.ts) follows incident events from the bus and asks the engine for
// own states. When a cause's trouble eases (a state event leaving Down, an incident cleared,
// gone or lowered: an own Down that ends while a child keeps the shown state Down publishes no
// state event, but its type-1 incident clears), the entities that
// follow from it are rechecked together a little later (debounced), so those still wrong are
// unsuppressed and notify once. A cause entering trouble does not suppress incidents raised
// before it (they have notified already; suppressing them would only notify twice).
import type { Logger } from 'pino';
import type { Suppression } from '../../storage/incidents-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { IncidentsService } from '../incidents/service.js';
import type { IncidentLevelsService } from '../incidents/levels-service.js';
import type { EventBus } from '../live/event-bus.js';
import { readDoc } from './dependencies-doc.js';
import { DependencyIndex, DOWN_STATE } from './dependency-index.js';

/** How long rechecks gather before they run (a storm's many clearings make one recheck). */
const RECHECK_DELAY_MS = 50;

export function createDependencySuppressor({ catalog, incidents, levels, bus, logger, defaultMinLevel, ownStateOf }: {
  catalog: Catalog;
  /** The engine's own state of an entity (before propagation). */
  ownStateOf: (entityId: string) => number | undefined;
  incidents: IncidentsService;
  levels: IncidentLevelsService;
  bus: EventBus;
  logger: Logger;
  /** incidents.dependencies.minLevel: a level id. */
  defaultMinLevel: string;
}) {
  const docOf = (id: string) => readDoc(catalog.setting(id, 'dependencies')?.value);

  function causesOf(id: string): string[] {
    const e = catalog.entity(id);
    if (!e) return [];
    const doc = docOf(id);
    const out: string[] = [];
    if (doc?.parents !== false) {
      if (e.entityType === 1) out.push(...e.parent_id);
      else out.push(e.source, e.target);
    }
    for (const d of doc?.dependsOn ?? []) if (d !== id && !out.includes(d) && catalog.entity(d)) out.push(d);
    return out;
  }

  const index = new DependencyIndex({
    causesOf,
    // No own state in the engine: whatever the entity shows comes from its children, never its own Down.
    ownDown: (id) => ownStateOf(id) === DOWN_STATE,
    thresholdOf: (id) => levels.priorityOf(docOf(id)?.minLevel ?? defaultMinLevel),
    priorityOf: (level) => levels.priorityOf(level),
  });

  // Start: the active incidents.
  for (const f of incidents.activeFacts()) index.setIncident(f.entityId, f.id, { level: f.level, cleared: f.cleared, suppression: f.suppression });

  /** Reverse of the declared dependencies: cause → entities that declared it (rebuilt when a document changes). */
  let declaredBy: Map<string, string[]> | undefined;
  const reverse = () => {
    if (declaredBy) return declaredBy;
    declaredBy = new Map();
    for (const s of catalog.settingsOfKind('dependencies')) {
      for (const d of readDoc(s.value)?.dependsOn ?? []) {
        const list = declaredBy.get(d) ?? [];
        list.push(s.entity_id);
        declaredBy.set(d, list);
      }
    }
    return declaredBy;
  };
  catalog.onChange((writes) => {
    for (const w of writes) {
      if ((w.op === 'putSetting' && w.row.kind === 'dependencies') || (w.op === 'deleteSetting' && w.kind === 'dependencies')) declaredBy = undefined;
    }
  });
  catalog.onDeleted((ids) => ids.forEach((id) => index.forget(id)));

  let eased = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function ease(entityId: string): void {
    if (stopped) return;
    eased.add(entityId);
    timer ??= setTimeout(flush, RECHECK_DELAY_MS);
  }

  function flush(): void {
    timer = undefined;
    const causes = eased;
    eased = new Set();
    const targets = new Set<string>(index.suppressedBy(causes));
    for (const c of causes) {
      for (const child of catalog.childrenOf(c)) targets.add(child);
      for (const d of reverse().get(c) ?? []) targets.add(d);
    }
    if (targets.size === 0) return;
    incidents.recheckSuppression(targets).catch((err: unknown) => logger.error({ err, causes: causes.size }, 'rechecking dependants failed'));
  }

  const unsubscribe = bus.subscribe((event) => {
    if (event.type === 'state') {
      if (event.previousStateId === DOWN_STATE && event.stateId !== DOWN_STATE) ease(event.entityId);
    } else if (event.type === 'incident') {
      const i = event.incident as { id: string; lastState: number; clearTimestamp?: number; suppression?: Suppression };
      const gone = event.action === 'removed';
      const fact = gone ? undefined : { level: i.lastState, cleared: i.clearTimestamp !== undefined, suppression: i.suppression ?? null };
      if (index.setIncident(event.entityId, i.id, fact)) ease(event.entityId);
    }
  });

  /** The suppressor the incidents service asks for every new incident and on each recheck. */
  const suppressor = (entity: { entityId: string }): Suppression | undefined => {
    const root = index.rootCause(entity.entityId);
    if (root === undefined) return undefined;
    const e = catalog.entity(root);
    if (!e) return undefined;
    return { kind: 'dependency', until: null, rootCause: { entityId: e.id, entityType: e.entityType, entityName: e.name } };
  };
  incidents.addSuppressor(suppressor);
  // A level a dependency threshold names is not deleted from under it (its priority would fall back silently).
  levels.guardDeletion(async (id) => {
    if (defaultMinLevel === id) return 'the configuration (incidents.dependencies.minLevel) names it';
    for (const s of catalog.settingsOfKind('dependencies')) {
      if (String(readDoc(s.value)?.minLevel ?? '') === id) return `the dependencies of entity ${s.entity_id} name it as minLevel`;
    }
    return undefined;
  });

  return {
    index,
    suppressor,
    /** Runs the rechecks gathered so far now (tests, shutdown). */
    flush,
    stop(): void {
      stopped = true;
      unsubscribe();
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}
export type DependencySuppressor = ReturnType<typeof createDependencySuppressor>;
