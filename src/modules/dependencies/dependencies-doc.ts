// The `dependencies` settings document of an entity: {dependsOn: [entity ids], parents: true |
// false, minLevel?: incident level id}. Stored as a one-element array (settings documents are
// arrays; manualState does the same). What the ids must name (existing, visible entities) is
// checked by the dependencies service, which knows the caller; this checks the shape.
import { ConditionError } from '../../core/conditions/condition-syntax.js';
import { idOf } from '../entities/entity-input.js';

export interface DependenciesDoc {
  dependsOn: string[];
  /** Whether the entity's parents count as causes (default true). */
  parents: boolean;
  /** The incident level at or above which (by priority) a cause's active incident counts; absent: the configured default. */
  minLevel?: string;
}

export const MAX_DEPENDS_ON = 100;

/** The document stored, from a body or a stored row's value. */
export function readDoc(value: unknown): DependenciesDoc | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (typeof v !== 'object' || v === null) return undefined;
  return v as DependenciesDoc;
}

/** Validates and normalises (ids as strings, duplicates dropped, parents defaulted); ConditionError naming the field. */
export function validateDependencies(value: unknown, levels: ReadonlySet<string>): unknown[] {
  const v = Array.isArray(value) ? (value.length === 1 ? value[0] : undefined) : value;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ConditionError('dependencies: expected an object {dependsOn, parents, minLevel}');
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) if (!['dependsOn', 'parents', 'minLevel'].includes(k)) throw new ConditionError(`dependencies.${k}: unknown field`);
  const list = o.dependsOn ?? [];
  if (!Array.isArray(list)) throw new ConditionError('dependencies.dependsOn: expected an array of entity ids');
  if (list.length > MAX_DEPENDS_ON) throw new ConditionError(`dependencies.dependsOn: at most ${MAX_DEPENDS_ON} entities`);
  const ids: string[] = [];
  list.forEach((x, i) => {
    const id = typeof x === 'string' || typeof x === 'number' ? idOf(x) : undefined;
    if (id === undefined) throw new ConditionError(`dependencies.dependsOn[${i}]: expected an entity id`);
    if (!ids.includes(id)) ids.push(id);
  });
  if (o.parents !== undefined && typeof o.parents !== 'boolean') throw new ConditionError('dependencies.parents: expected true or false');
  const doc: DependenciesDoc = { dependsOn: ids, parents: o.parents !== false };
  if (o.minLevel !== undefined && o.minLevel !== null) {
    const level = typeof o.minLevel === 'string' || typeof o.minLevel === 'number' ? idOf(o.minLevel) : undefined;
    if (level === undefined || !levels.has(level)) throw new ConditionError(`dependencies.minLevel: unknown incident level ${JSON.stringify(o.minLevel)}`);
    doc.minLevel = level;
  }
  return [doc];
}
