// What the engine makes of catalog changes made by others (the engine does not hear its own
// state writes: catalog.onChange with ignoreOrigin). Objects added, moved or deleted and state
// priorities changed move states along the tree; a deleted entity's engine memory goes; a
// replaced condition document starts its durations afresh and is evaluated at the next pass;
// so does every entity following a replaced class document (class templates), and an entity
// whose class changed.
import { forgetUnder } from '../../core/conditions/evaluate.js';
import type { Change as PropagationChange, StatePropagation } from '../../core/states/state-propagation.js';
import { CHILD_STATE } from '../../core/states/state-selection.js';
import { CLASS_SETTING_KINDS, type CatalogWrite, type ClassSettingKind, type SettingKind, type StateChangeRow } from '../../storage/catalog-types.js';
import type { CatalogChange, MemEntity } from '../catalog/catalog.js';
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
  /** The entities of a class that follow its document of a kind (they have none of their own). */
  followersOf: (classId: string, kind: ClassSettingKind) => string[];
  /** Whether the entity has its own document of a kind. */
  hasOwn: (id: string, kind: SettingKind) => boolean;
}

export function createCatalogFollower(deps: CatalogFollowerDeps): (writes: readonly CatalogWrite[], change?: Pick<CatalogChange, 'classMoved'>) => void {
  const { propagation, structural } = deps;
  /** The document that applies to the entity changed: durations afresh, evaluated at the next pass. */
  const renewed = (id: string, kind: SettingKind) => {
    forgetUnder(deps.durationsOf(id), kind);
    deps.markDirty(id);
  };
  return (writes, change) => {
    for (const id of change?.classMoved ?? []) {
      if (!deps.exists(id)) continue;
      for (const kind of CLASS_SETTING_KINDS) if (!deps.hasOwn(id, kind)) renewed(id, kind);
    }
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
          renewed(id, kind);
          break;
        }
        case 'putClassSetting':
        case 'deleteClassSetting': {
          const classId = w.op === 'putClassSetting' ? w.row.class_id : w.classId;
          const kind = w.op === 'putClassSetting' ? w.row.kind : w.kind;
          for (const id of deps.followersOf(classId, kind)) renewed(id, kind);
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
