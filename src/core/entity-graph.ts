// The shape of what is monitored: objects in a tree where an object may have several parents
// (so, a directed acyclic graph under the root "1"), and links joining two objects. Pure data
// structure, kept in memory so that visibility, paths, cycle checks and cascades cost in
// proportion to the part of the tree they touch, never a database round trip per level.

export const ROOT_ID = '1';

/** Paths to one object are capped: a graph of diamonds has exponentially many. */
export const MAX_PATHS = 1000;

interface LinkEnds {
  source: string;
  target: string;
}

const EMPTY: ReadonlySet<string> = new Set();

export class EntityGraph {
  private readonly parents = new Map<string, string[]>();
  private readonly children = new Map<string, Set<string>>();
  private readonly links = new Map<string, LinkEnds>();
  /** Links by either end, so an object's links are found without a scan. */
  private readonly linksByObject = new Map<string, Set<string>>();
  /**
   * Links by the objects they belong to (the common parents of their ends), kept as the tree
   * changes, so a page of an object's links is read off a set instead of found by a walk
   * over every child's links.
   */
  private readonly linksUnder = new Map<string, Set<string>>();
  /** Bumped on every change of shape; caches of derived sets (visibility) key on it. */
  version = 0;

  hasObject(id: string): boolean {
    return this.parents.has(id);
  }

  hasLink(id: string): boolean {
    return this.links.has(id);
  }

  get objectCount(): number {
    return this.parents.size;
  }

  parentsOf(id: string): readonly string[] {
    return this.parents.get(id) ?? [];
  }

  childrenOf(id: string): ReadonlySet<string> {
    return this.children.get(id) ?? EMPTY;
  }

  linksOfObject(id: string): ReadonlySet<string> {
    return this.linksByObject.get(id) ?? EMPTY;
  }

  /**
   * Adds an object under `parents` (all must exist, except for the root, which has none).
   * The graph keeps the array it is given: callers treat parent lists as immutable.
   */
  addObject(id: string, parents: readonly string[]): void {
    this.parents.set(id, parents as string[]);
    for (const p of parents) this.childSet(p).add(id);
    this.version++;
  }

  setParents(id: string, parents: readonly string[]): void {
    const links = [...this.linksOfObject(id)];
    for (const l of links) this.unindexLink(l);
    for (const p of this.parentsOf(id)) this.children.get(p)?.delete(id);
    this.parents.set(id, parents as string[]);
    for (const p of parents) this.childSet(p).add(id);
    for (const l of links) this.indexLink(l);
    this.version++;
  }

  removeObject(id: string): void {
    for (const l of [...this.linksOfObject(id)]) this.removeLink(l);
    for (const p of this.parentsOf(id)) this.children.get(p)?.delete(id);
    for (const c of this.childrenOf(id)) {
      const rest = this.parentsOf(c).filter((p) => p !== id);
      this.parents.set(c, rest);
    }
    // Links among its children belonged to it (and still belong to their other common parents).
    this.linksUnder.delete(id);
    this.parents.delete(id);
    this.children.delete(id);
    this.linksByObject.delete(id);
    this.version++;
  }

  addLink(id: string, source: string, target: string): void {
    this.links.set(id, { source, target });
    this.linkSet(source).add(id);
    this.linkSet(target).add(id);
    this.indexLink(id);
    this.version++;
  }

  setLinkEnds(id: string, source: string, target: string): void {
    this.removeLink(id);
    this.addLink(id, source, target);
  }

  removeLink(id: string): void {
    const ends = this.links.get(id);
    if (!ends) return;
    this.unindexLink(id);
    this.linksByObject.get(ends.source)?.delete(id);
    this.linksByObject.get(ends.target)?.delete(id);
    this.links.delete(id);
    this.version++;
  }

  /** The objects a link belongs to: the common parents of its two ends. */
  ownersOf(id: string): string[] {
    const ends = this.links.get(id);
    if (!ends) return [];
    const targetParents = this.parentsOf(ends.target);
    return this.parentsOf(ends.source).filter((p) => targetParents.includes(p));
  }

  private indexLink(id: string): void {
    for (const p of this.ownersOf(id)) {
      let set = this.linksUnder.get(p);
      if (!set) this.linksUnder.set(p, (set = new Set()));
      set.add(id);
    }
  }

  private unindexLink(id: string): void {
    for (const p of this.ownersOf(id)) this.linksUnder.get(p)?.delete(id);
  }

  /** True when giving `id` these parents would make it its own ancestor. */
  wouldCreateCycle(id: string, newParents: readonly string[]): boolean {
    const seen = new Set<string>();
    const stack = [...newParents];
    while (stack.length > 0) {
      const p = stack.pop()!;
      if (p === id) return true;
      if (seen.has(p)) continue;
      seen.add(p);
      stack.push(...this.parentsOf(p));
    }
    return false;
  }

  /**
   * What deleting `ids` removes: those objects, every descendant left with no parent outside
   * the removed set, and every link touching a removed object.
   */
  cascade(ids: readonly string[]): { objects: string[]; links: string[] } {
    const removed = new Set<string>(ids);
    const queue = [...ids];
    while (queue.length > 0) {
      const id = queue.shift()!;
      for (const child of this.childrenOf(id)) {
        if (removed.has(child)) continue;
        if (this.parentsOf(child).every((p) => removed.has(p))) {
          removed.add(child);
          queue.push(child);
        }
      }
    }
    const links = new Set<string>();
    for (const id of removed) for (const l of this.linksOfObject(id)) links.add(l);
    return { objects: [...removed], links: [...links] };
  }

  /** `ids` and everything below them. */
  descendants(ids: Iterable<string>): Set<string> {
    const out = new Set<string>();
    const stack: string[] = [];
    for (const id of ids) if (this.hasObject(id)) stack.push(id);
    while (stack.length > 0) {
      const id = stack.pop()!;
      if (out.has(id)) continue;
      out.add(id);
      for (const c of this.childrenOf(id)) if (!out.has(c)) stack.push(c);
    }
    return out;
  }

  /** Every root-to-object path (ids, root first), at most MAX_PATHS of them. */
  pathsTo(id: string): string[][] {
    if (!this.hasObject(id)) return [];
    const out: string[][] = [];
    const walk = (node: string, below: string[]): void => {
      if (out.length >= MAX_PATHS) return;
      const parents = this.parentsOf(node);
      if (parents.length === 0) {
        out.push([node, ...below]);
        return;
      }
      for (const p of parents) walk(p, [node, ...below]);
    };
    walk(id, []);
    return out;
  }

  /** The path through each object's first parent: the one a single `path` string shows. */
  firstPathTo(id: string): string[] {
    const out: string[] = [];
    const seen = new Set<string>();
    for (let node: string | undefined = id; node !== undefined && !seen.has(node); node = this.parentsOf(node)[0]) {
      seen.add(node);
      out.unshift(node);
    }
    return out;
  }

  /** Links whose two ends are both children of `id`: the links that belong to that object. */
  linksAmongChildren(id: string): ReadonlySet<string> {
    return this.linksUnder.get(id) ?? EMPTY;
  }

  private childSet(id: string): Set<string> {
    let set = this.children.get(id);
    if (!set) this.children.set(id, (set = new Set()));
    return set;
  }

  private linkSet(id: string): Set<string> {
    let set = this.linksByObject.get(id);
    if (!set) this.linksByObject.set(id, (set = new Set()));
    return set;
  }
}
