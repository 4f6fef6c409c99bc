// Which entities a window's scope covers:
// - an object named in `scope.objects`, and with `subtree` every object below one (through any
//   parent: objects may have several);
// - an object or link carrying a tag named in `scope.tags`;
// - a link whose two ends are both covered (the links among covered objects: a link between
//   two switches under maintenance goes down with them).
// Decided by walking up from the entity, never by expanding a subtree: windows are few, trees
// may be large, and an object added below a covered one is covered at once.
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { MaintenanceScope } from '../../storage/maintenance-types.js';

/** A scope's object ids as a set, made once per scope (scopes are replaced, never changed in place). */
const objectSets = new WeakMap<MaintenanceScope, ReadonlySet<string>>();
function objectsOf(scope: MaintenanceScope): ReadonlySet<string> {
  let set = objectSets.get(scope);
  if (!set) objectSets.set(scope, (set = new Set(scope.objects)));
  return set;
}

export function covers(catalog: Catalog, scope: MaintenanceScope, entity: MemEntity): boolean {
  if (scope.tags.length > 0 && entity.tags.some((t) => scope.tags.includes(t))) return true;
  if (entity.entityType === 2) {
    const source = catalog.object(entity.source);
    const target = catalog.object(entity.target);
    return source !== undefined && target !== undefined && covers(catalog, scope, source) && covers(catalog, scope, target);
  }
  const objects = objectsOf(scope);
  if (objects.has(entity.id)) return true;
  if (!scope.subtree || objects.size === 0) return false;
  // Up through every parent, each object once (the graph has no cycles, but shares ancestors).
  const seen = new Set<string>([entity.id]);
  const todo = [...entity.parent_id];
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    if (objects.has(id)) return true;
    const o = catalog.object(id);
    if (o) todo.push(...o.parent_id);
  }
  return false;
}
