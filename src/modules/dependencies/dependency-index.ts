// The entities in trouble, in memory, for the dependency suppressor: which are Down on their own
// (state 8 not merely propagated from a child; asked of the engine) and the level of each of
// their active incidents.
// A decision walks only the entity's causes (its parents when enabled, its declared
// dependencies) and, to name the topmost cause, their causes in turn: O(depth × causes), no
// database query, so a storm of ten thousand incidents under one Down parent costs ten
// thousand short walks.
//
// Pure: the catalog's view (causes of an entity, its settings, level priorities) is given.
import type { Suppression } from '../../storage/incidents-types.js';

/** Built-in state Down. */
export const DOWN_STATE = 8;

export interface IncidentFact {
  /** The level (lastState). */
  level: number;
  cleared: boolean;
  suppression: Suppression | null;
}

export interface IndexDeps {
  /** Whether the entity is Down on its own (its own state, not one propagated up from a child). */
  ownDown(entityId: string): boolean;
  /** The entities whose trouble counts as a cause of this one's (parents if enabled, declared dependencies), existing ones only. */
  causesOf(entityId: string): readonly string[];
  /** The priority at or above which a cause's incident counts, for this dependant. */
  thresholdOf(entityId: string): number;
  priorityOf(level: number): number;
}

/** How deep a walk to the topmost cause goes (a guard; trees are far shallower). */
const MAX_DEPTH = 64;

export class DependencyIndex {
  private readonly incidents = new Map<string, Map<string, IncidentFact>>();

  constructor(private readonly deps: IndexDeps) {}

  /** Follows an incident (undefined: gone to history); answers whether the entity's trouble went down. */
  setIncident(entityId: string, incidentId: string, fact: IncidentFact | undefined): boolean {
    const before = this.worst(entityId);
    let mine = this.incidents.get(entityId);
    if (fact) {
      if (!mine) this.incidents.set(entityId, (mine = new Map()));
      mine.set(incidentId, fact);
    } else if (mine) {
      mine.delete(incidentId);
      if (mine.size === 0) this.incidents.delete(entityId);
    }
    return this.worst(entityId) < before;
  }

  /** The entity is gone: its state and incidents leave the index. */
  forget(entityId: string): void {
    this.incidents.delete(entityId);
  }

  /** The highest priority of the entity's active, not cleared incidents (-Infinity: none). */
  private worst(entityId: string): number {
    let w = -Infinity;
    for (const f of this.incidents.get(entityId)?.values() ?? []) if (!f.cleared) w = Math.max(w, this.deps.priorityOf(f.level));
    return w;
  }

  /**
   * Whether `cause` is in trouble for `dependant`: Down now, or an active, not cleared incident
   * at or above the dependant's threshold that is not itself suppressed because of the dependant
   * (which would make two entities each other's cause).
   */
  troubled(cause: string, dependant: string, threshold: number): boolean {
    if (this.deps.ownDown(cause)) return true;
    for (const f of this.incidents.get(cause)?.values() ?? []) {
      if (f.cleared || this.deps.priorityOf(f.level) < threshold) continue;
      if (f.suppression?.kind === 'dependency' && f.suppression.rootCause?.entityId === dependant) continue;
      return true;
    }
    return false;
  }

  /** The first cause of the entity in trouble, if any (none of `seen`). */
  private firstCause(entityId: string, origin: string, seen: Set<string>): string | undefined {
    const threshold = this.deps.thresholdOf(entityId);
    for (const c of this.deps.causesOf(entityId)) {
      if (seen.has(c) || c === origin) continue;
      if (this.troubled(c, origin, threshold)) return c;
    }
    return undefined;
  }

  /** The topmost cause in trouble upstream of the entity (undefined: none, its incidents are its own). */
  rootCause(entityId: string): string | undefined {
    const seen = new Set<string>([entityId]);
    let cause = this.firstCause(entityId, entityId, seen);
    if (cause === undefined) return undefined;
    for (let depth = 0; depth < MAX_DEPTH; depth++) {
      seen.add(cause);
      const next = this.firstCause(cause, entityId, seen);
      if (next === undefined) break;
      cause = next;
    }
    return cause;
  }

  /** Entities with an active incident suppressed because of one of these causes (to recheck when a cause eases). */
  suppressedBy(causes: ReadonlySet<string>): string[] {
    const out: string[] = [];
    for (const [entityId, mine] of this.incidents) {
      for (const f of mine.values()) {
        const root = f.suppression?.kind === 'dependency' ? f.suppression.rootCause?.entityId : undefined;
        if (root !== undefined && causes.has(root)) {
          out.push(entityId);
          break;
        }
      }
    }
    return out;
  }
}
