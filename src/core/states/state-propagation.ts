// States flowing up the object graph (a DAG: an object may have several parents). Each object
// has an own state (conditions, manual state or expiry) and an effective state: the state of
// highest priority among its own and its children's effective states, its own winning ties
// (api-extensions.md: a parent takes a child's state "when that outranks its own").
//
// Incremental: each object keeps, per state, how many of its children are in it, so a child's
// change costs O(parents × distinct states) at each level it reaches, and stops at the first
// level where nothing changes, never a walk over siblings. Pure data structure, no recursion
// (a 10,000-deep chain must not overflow the stack).
//
// Between children of equal priority the lower state id wins, which makes the choice a total
// order: effective states then move one way only during a cascade (all up, or all down), so
// a cascade ends even on a cycle the catalog should have refused, and each object changes at
// most once per distinct state.

export interface Change {
  id: string;
  from: number;
  to: number;
  /** The object whose change started the cascade, when not `id` itself (reason 10). */
  cause?: string;
}

export interface PropagationEntry {
  id: string;
  own: number;
  parents: readonly string[];
}

interface Node {
  /** False for a placeholder: a parent named by a child but not added yet. */
  present: boolean;
  own: number;
  effective: number;
  parents: string[];
  children: Set<string> | null;
  /** Children per effective state; null while there are none. */
  counts: Map<number, number> | null;
}

export class StatePropagation {
  private readonly nodes = new Map<string, Node>();
  private present = 0;

  constructor(private readonly priorityOf: (stateId: number) => number) {}

  /** Number of objects present (placeholders not counted). */
  get size(): number {
    return this.present;
  }

  has(id: string): boolean {
    return this.nodes.get(id)?.present === true;
  }

  own(id: string): number | undefined {
    const node = this.nodes.get(id);
    return node?.present ? node.own : undefined;
  }

  effective(id: string): number | undefined {
    const node = this.nodes.get(id);
    return node?.present ? node.effective : undefined;
  }

  /**
   * Replaces everything with `entries` (any order; parents may come after their children) and
   * computes every effective state in one leaf-first pass: O(objects + parent links).
   */
  load(entries: Iterable<PropagationEntry>): void {
    this.nodes.clear();
    this.present = 0;
    for (const { id, own, parents } of entries) {
      const node = this.placeholder(id);
      if (node.present) throw new Error(`object ${id} is listed twice`);
      node.present = true;
      node.own = own;
      node.effective = own;
      node.parents = cleanParents(parents, id);
      this.present++;
      for (const p of node.parents) this.linkChild(p, id);
    }
    this.recomputeAll();
  }

  /**
   * Adds an object; parents not added yet are remembered and pick up its state when they
   * come. Returns the ancestors whose effective state changed (the object itself is new).
   */
  addObject(id: string, own: number, parents: readonly string[]): Change[] {
    const node = this.placeholder(id);
    if (node.present) throw new Error(`object ${id} is already present`);
    node.present = true;
    this.present++;
    node.own = own;
    node.parents = cleanParents(parents, id);
    node.effective = this.compute(node);
    for (const p of node.parents) {
      this.count(this.linkChild(p, id), node.effective, 1);
    }
    return this.settle([...node.parents], id);
  }

  /** Moves an object under other parents. Returns the old and new ancestors that changed. */
  setParents(id: string, parents: readonly string[]): Change[] {
    const node = this.nodes.get(id);
    if (!node?.present) return [];
    const next = cleanParents(parents, id);
    const queue: string[] = [];
    for (const p of node.parents) {
      if (next.includes(p)) continue;
      this.unlinkChild(p, id, node.effective);
      queue.push(p);
    }
    for (const p of next) {
      if (node.parents.includes(p)) continue;
      this.count(this.linkChild(p, id), node.effective, 1);
      queue.push(p);
    }
    node.parents = next;
    return this.settle(queue, id);
  }

  /**
   * Removes an object: its children forget it as a parent, its parents lose its state.
   * Returns the ancestors that changed, with `cause` the removed id.
   */
  removeObject(id: string): Change[] {
    const node = this.nodes.get(id);
    if (!node?.present) return [];
    for (const c of node.children ?? []) {
      const child = this.nodes.get(c)!;
      child.parents = child.parents.filter((p) => p !== id);
    }
    this.nodes.delete(id);
    this.present--;
    for (const p of node.parents) this.unlinkChild(p, id, node.effective);
    return this.settle([...node.parents], id);
  }

  /**
   * Sets an object's own state. Returns every object whose effective state changed: the
   * object first (when it changed), then its ancestors, each once. An unknown id changes nothing.
   */
  setOwn(id: string, stateId: number): Change[] {
    const node = this.nodes.get(id);
    if (!node?.present) return [];
    node.own = stateId;
    return this.settle([id], id);
  }

  /** State priorities changed: recomputes everything. Returns the objects that changed (no cause). */
  repriorize(): Change[] {
    const before = new Map<string, number>();
    for (const [id, node] of this.nodes) if (node.present) before.set(id, node.effective);
    this.recomputeAll();
    const changes: Change[] = [];
    for (const [id, from] of before) {
      const to = this.nodes.get(id)!.effective;
      if (to !== from) changes.push({ id, from, to });
    }
    return changes;
  }

  /** The effective state of `node` from its own state and its children's counts. */
  private compute(node: Node): number {
    let best = node.own;
    let bestPriority = this.priorityOf(best);
    let fromChild = false;
    if (node.counts) {
      for (const state of node.counts.keys()) {
        const p = this.priorityOf(state);
        if (p > bestPriority || (fromChild && p === bestPriority && state < best)) {
          best = state;
          bestPriority = p;
          fromChild = true;
        }
      }
    }
    return best;
  }

  private placeholder(id: string): Node {
    let node = this.nodes.get(id);
    if (!node) {
      node = { present: false, own: 0, effective: 0, parents: [], children: null, counts: null };
      this.nodes.set(id, node);
    }
    return node;
  }

  private linkChild(parentId: string, childId: string): Node {
    const parent = this.placeholder(parentId);
    (parent.children ??= new Set()).add(childId);
    return parent;
  }

  private unlinkChild(parentId: string, childId: string, childState: number): void {
    const parent = this.nodes.get(parentId);
    if (!parent) return;
    parent.children?.delete(childId);
    this.count(parent, childState, -1);
    if (!parent.present && !parent.children?.size) this.nodes.delete(parentId);
  }

  private count(node: Node, state: number, delta: 1 | -1): void {
    const counts = (node.counts ??= new Map());
    const n = (counts.get(state) ?? 0) + delta;
    if (n > 0) counts.set(state, n);
    else counts.delete(state);
  }

  /**
   * Recomputes the objects in `queue` and, as they change, their ancestors, until nothing
   * changes. Each object's change updates its parents' counts at once, so counts always match
   * the stored effective states; an object reached twice (diamonds) is reported once, with its
   * state before the cascade and after it.
   */
  private settle(queue: string[], cause: string): Change[] {
    if (queue.length === 0) return [];
    const queued = new Set(queue);
    const before = new Map<string, number>();
    for (let i = 0; i < queue.length; i++) {
      const id = queue[i]!;
      queued.delete(id);
      const node = this.nodes.get(id);
      if (!node?.present) continue;
      const effective = this.compute(node);
      if (effective === node.effective) continue;
      if (!before.has(id)) before.set(id, node.effective);
      for (const p of node.parents) {
        const parent = this.nodes.get(p)!;
        this.count(parent, node.effective, -1);
        this.count(parent, effective, 1);
        if (!queued.has(p)) {
          queued.add(p);
          queue.push(p);
        }
      }
      node.effective = effective;
    }
    const changes: Change[] = [];
    for (const [id, from] of before) {
      const to = this.nodes.get(id)!.effective;
      if (to !== from) changes.push(id === cause ? { id, from, to } : { id, from, to, cause });
    }
    return changes;
  }

  /** Every count and effective state from scratch, leaves first (Kahn's order). */
  private recomputeAll(): void {
    const waiting = new Map<Node, number>();
    const ready: Node[] = [];
    for (const node of this.nodes.values()) {
      node.counts = null;
      const n = node.children?.size ?? 0;
      if (n === 0) ready.push(node);
      else waiting.set(node, n);
    }
    const done = (node: Node): void => {
      if (!node.present) return;
      node.effective = this.compute(node);
      for (const p of node.parents) {
        const parent = this.nodes.get(p)!;
        this.count(parent, node.effective, 1);
        const left = waiting.get(parent)! - 1;
        if (left === 0) {
          waiting.delete(parent);
          ready.push(parent);
        } else {
          waiting.set(parent, left);
        }
      }
    };
    while (ready.length > 0) done(ready.pop()!);
    if (waiting.size === 0) return;
    // A cycle (which the catalog refuses) leaves its members waiting on each other: seed them
    // from what they have, then let the cascade settle them (it ends: see the header).
    const rest: string[] = [];
    for (const [id, node] of this.nodes) {
      if (!waiting.has(node) || !node.present) continue;
      node.effective = this.compute(node);
      rest.push(id);
    }
    for (const id of rest) {
      const node = this.nodes.get(id)!;
      for (const p of node.parents) if (waiting.has(this.nodes.get(p)!)) this.count(this.nodes.get(p)!, node.effective, 1);
    }
    this.settle(rest, '');
  }
}

/** Parents without repeats and without the object itself (a self-loop would pin its state). */
function cleanParents(parents: readonly string[], id: string): string[] {
  if (parents.length <= 1) return parents[0] === undefined || parents[0] === id ? [] : [parents[0]];
  return [...new Set(parents)].filter((p) => p !== id);
}
