// Which entities a user may see, from their objectPermissions: the subtrees under `include`
// minus the subtrees under `exclude`. An object under several parents is inside a subtree
// when any of its paths passes through it. A link is visible when both its ends are.
import { type EntityGraph, ROOT_ID } from './entity-graph.js';

export interface ObjectAccessList {
  include: ReadonlyArray<string | number>;
  exclude?: ReadonlyArray<string | number>;
}

/** What one user may see: everything, or a set of object ids. */
export interface Visibility {
  readonly all: boolean;
  /** Objects the user may see and change (root included only when their list includes it). */
  has(id: string): boolean;
  /** Like `has`, but the root is always readable: it is where every listing starts. */
  canRead(id: string): boolean;
  /** A link is visible when both of its ends are. */
  hasLink(source: string, target: string): boolean;
}

export const SEE_ALL: Visibility = {
  all: true,
  has: () => true,
  canRead: () => true,
  hasLink: () => true,
};

export function visibilityOf(graph: EntityGraph, list: ObjectAccessList | null | undefined): Visibility {
  if (!list) return SEE_ALL;
  const included = graph.descendants(list.include.map(String));
  for (const id of graph.descendants((list.exclude ?? []).map(String))) included.delete(id);
  if (included.size === graph.objectCount) return SEE_ALL;
  return {
    all: false,
    has: (id) => included.has(id),
    canRead: (id) => id === ROOT_ID || included.has(id),
    hasLink: (source, target) => included.has(source) && included.has(target),
  };
}
