// What the engine makes of catalog changes made by others (the engine does not hear its own
// state writes: catalog.onChange with ignoreOrigin). Objects added, moved or deleted and state
// priorities changed move states along the tree; a deleted entity's engine memory goes; a
// replaced condition document starts its durations afresh and is evaluated at the next pass.
import { forgetUnder } from '../../core/conditions/evaluate.js';
import type { Change as PropagationChange, StatePropagation } from '../../core/states/state-propagation.js';
import { CHILD_STATE } from '../../core/states/state-selection.js';
import type { CatalogWrite, SettingKind, StateChangeRow } from '../../storage/catalog-types.js';
import type { MemEntity } from '../catalog/catalog.js';
import { rootCause } from './evaluator.js';

/** Documents the conditions do not read: a change to one needs no evaluation. */
const NOT_READ_BY_CONDITIONS: ReadonlySet<SettingKind> = new Set<SettingKind>(['stateTriggers', 'statRules', 'manualState', 'dependencies']);

export interface CatalogFollowerDeps {
  propagation: StatePropagation;
  exists: (id: string) => boolean;
  /** The own state an object shows (for one added to the tree). */
  shownOf: (id: string) => number;
  /** Stores the state changes a change of the tree made (in the engine's queue). */
  structural: (changes: readonly PropagationChange[]) => void;
  /** The duration starts of an entity (made if need be). */
  durationsOf: (id: string) => Map<string, number>;
  /** Evaluate the entity at the next pass. */
  markDirty: (id: string) => void;
  /** Forget everything the engine holds about deleted entities. */
  forget: (ids: readonly string[]) => void;
}

export function createCatalogFollower(deps: CatalogFollowerDeps): (writes: readonly CatalogWrite[]) => void {
  const { propagation, structural } = deps;
  return (writes) => {
    for (const w of writes) {
      switch (w.op) {
        case 'putObject':
          if (!propagation.has(w.row.id)) structural(propagation.addObject(w.row.id, deps.shownOf(w.row.id), w.row.parent_id));
          else if (w.parents ?? true) structural(propagation.setParents(w.row.id, w.row.parent_id));
          break;
        case 'deleteEntities':
          for (const id of w.ids) {
            if (propagation.has(id)) structural(propagation.removeObject(id).filter((c) => deps.exists(c.id)));
          }
          deps.forget(w.ids);
          break;
        case 'putSetting':
        case 'deleteSetting': {
          const id = w.op === 'putSetting' ? w.row.entity_id : w.entityId;
          const kind = w.op === 'putSetting' ? w.row.kind : w.kind;
          if (NOT_READ_BY_CONDITIONS.has(kind)) break;
          // A new document starts its durations afresh.
          forgetUnder(deps.durationsOf(id), kind);
          deps.markDirty(id);
          break;
        }
        case 'putState':
          structural(propagation.repriorize());
          break;
        default:
          break;
      }
    }
  };
}

/** The stored state changes a change of the tree made, each naming the entity that caused it. */
export function childStateRows(changes: readonly PropagationChange[], now: number, entity: (id: string) => MemEntity | undefined): StateChangeRow[] {
  return changes.map((p): StateChangeRow => {
    const cause = p.cause === undefined ? undefined : entity(p.cause);
    return { entityId: p.id, stateId: p.to, previousStateId: p.from, timestamp: now, reason: cause ? { code: CHILD_STATE, rootCause: rootCause(cause) } : { code: CHILD_STATE } };
  });
}
