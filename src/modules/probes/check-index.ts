// Which checks each entity has: the service properties (type 8) holding check definitions,
// parsed once and kept up to date from the catalog's changes. An entity's checks are those of
// its effective properties: its own, and its class's it does not override (class templates).
// The scheduler, the agents' check lists and the engine's implicit state conditions all read it.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { CheckDefinition } from '../../core/probes/check-definition.js';
import { defaultStateConditions } from '../../core/probes/default-conditions.js';
import type { StateCondition } from '../../core/conditions/entity-settings.js';
import type { CatalogWrite } from '../../storage/catalog-types.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { PropertyRules } from '../entities/property-rules.js';

export interface EntityCheck {
  entityId: string;
  propertyId: string;
  /** The property's name: how operators tell an entity's checks apart. */
  name: string;
  check: CheckDefinition;
  /**
   * Property id (with the entity's for one inherited from its class) and a digest of the
   * definition: unique among all checks, and a new key exactly when the check changes.
   */
  key: string;
}

/** `checks` is the entity's new list, empty when it has none left or is gone. */
export type ChecksListener = (entityId: string, checks: readonly EntityCheck[]) => void;

export function createCheckIndex({ catalog, rules, logger }: { catalog: Catalog; rules: PropertyRules; logger: Logger }) {
  const byEntity = new Map<string, EntityCheck[]>();
  /** Agent name → entities with a check it runs (agents check in often; no scan of every check). */
  const byAgent = new Map<string, Set<string>>();
  /** Implied conditions, computed once per change (the engine asks at every evaluation); null: none. */
  const conditions = new Map<string, StateCondition[] | null>();

  function put(id: string, checks: EntityCheck[]): void {
    for (const c of byEntity.get(id) ?? []) if (c.check.agent) byAgent.get(c.check.agent)?.delete(id);
    if (checks.length > 0) byEntity.set(id, checks);
    else byEntity.delete(id);
    for (const c of checks) {
      if (!c.check.agent) continue;
      let ids = byAgent.get(c.check.agent);
      if (!ids) byAgent.set(c.check.agent, (ids = new Set()));
      ids.add(id);
    }
    conditions.delete(id);
  }
  const listeners: ChecksListener[] = [];

  function checksOf(entity: MemEntity): EntityCheck[] {
    const out: EntityCheck[] = [];
    for (const p of catalog.effectiveProps(entity)) {
      try {
        const check = rules.checkOf(p, '');
        // One inherited class property is a check of every entity of the class: its key names
        // the entity too (schedulers key their checks by it alone).
        const owner = p.inherited ? `${p.id}/${entity.id}` : p.id;
        if (check) out.push({ entityId: entity.id, propertyId: p.id, name: p.name, check, key: `${owner}@${createHash('sha1').update(p.value).digest('hex').slice(0, 16)}` });
      } catch (err) {
        // Stored before a limit changed (the interval floor, say): not run, and said so once.
        logger.warn({ entityId: entity.id, property: p.name, err: (err as Error).message }, 'a stored check is no longer valid; it does not run');
      }
    }
    return out;
  }

  function refresh(id: string): void {
    const entity = catalog.entity(id);
    const checks = entity ? checksOf(entity) : [];
    const had = byEntity.has(id);
    put(id, checks);
    if (had || checks.length > 0) for (const l of listeners) l(id, checks);
  }

  for (const e of [...catalog.allObjects(), ...catalog.allLinks()]) {
    const checks = checksOf(e);
    if (checks.length > 0) put(e.id, checks);
  }
  catalog.onChange((writes: readonly CatalogWrite[], change) => {
    const touched = new Set<string>(change.classMoved);
    for (const w of writes) {
      if (w.op === 'putProp') touched.add(w.row.entity_id);
      else if (w.op === 'deleteProp') touched.add(w.entityId);
      else if (w.op === 'deleteEntities') {
        for (const id of w.ids) if (byEntity.has(id)) touched.add(id);
      } else if ((w.op === 'putObject' || w.op === 'putLink') && !byEntity.has(w.row.id) && w.row.class_id !== null && catalog.classPropsOf(w.row.class_id).length > 0) {
        // A new entity of a class with properties inherits the class's checks (a class change is in classMoved).
        touched.add(w.row.id);
      } else if (w.op === 'putClassProp' || w.op === 'deleteClassProp') {
        for (const e of catalog.usesOfClass(w.op === 'putClassProp' ? w.row.class_id : w.classId)) touched.add(e.id);
      }
    }
    for (const id of touched) refresh(id);
  });

  return {
    /** Told at once of every entity whose checks changed (added, changed, removed, entity deleted). */
    onChange(listener: ChecksListener): void {
      listeners.push(listener);
    },

    checks(entityId: string): readonly EntityCheck[] {
      return byEntity.get(entityId) ?? [];
    },

    all(): IterableIterator<[string, EntityCheck[]]> {
      return byEntity.entries();
    },

    /** The enabled checks a remote agent runs, by the agent's name. */
    agentChecks(name: string): EntityCheck[] {
      const out: EntityCheck[] = [];
      for (const id of byAgent.get(name) ?? []) for (const c of byEntity.get(id) ?? []) if (c.check.agent === name && c.check.enabled) out.push(c);
      return out;
    },

    /** The state conditions an entity's checks imply (the engine uses them when it has none of its own). */
    implicitConditions(entityId: string): StateCondition[] | undefined {
      if (!byEntity.has(entityId)) return undefined;
      let sc = conditions.get(entityId);
      if (sc === undefined) {
        const enabled = (byEntity.get(entityId) ?? []).filter((c) => c.check.enabled);
        conditions.set(entityId, (sc = enabled.length > 0 ? defaultStateConditions(enabled.map((c) => c.check)) : null));
      }
      return sc ?? undefined;
    },
  };
}

export type CheckIndex = ReturnType<typeof createCheckIndex>;
