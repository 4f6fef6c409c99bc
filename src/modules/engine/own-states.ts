// The engine's memory of each entity's own state: what its conditions say (`auto`), a manual
// state over it, its `_duration` starts and raised incident keys. Duration starts report their
// changes (durable-memory.ts writes them out), so a restart continues a `_duration` instead of
// starting it over.
import type { Own } from './engine-types.js';

/** Duration starts by condition path; tells `changed` when an entry is added, moved or removed. */
export class TrackedDurations extends Map<string, number> {
  constructor(private readonly changed: () => void) {
    super();
  }

  override set(key: string, value: number): this {
    // Evaluation sets a start once and reads it after; only a new or moved start is news.
    if (super.get(key) !== value) {
      super.set(key, value);
      this.changed();
    }
    return this;
  }

  override delete(key: string): boolean {
    // A failing body deletes its start at every evaluation: only a real removal is news.
    const had = super.delete(key);
    if (had) this.changed();
    return had;
  }

  override clear(): void {
    if (this.size === 0) return;
    super.clear();
    this.changed();
  }
}

/** Built-in state Created: what an entity is before anything says otherwise. */
export const CREATED_STATE = 1;

export class OwnStates {
  private readonly owns = new Map<string, Own>();

  /** `durationsChanged` hears of every entity whose duration starts changed. */
  constructor(private readonly durationsChanged: (entityId: string) => void) {}

  /** The entity's own state, made (Created, nothing pending) on first use. */
  of(id: string): Own {
    let o = this.owns.get(id);
    if (!o) {
      o = { auto: CREATED_STATE, manual: null, autoReason: { code: 0 }, durations: new TrackedDurations(() => this.durationsChanged(id)), raised: new Set(), expired: false };
      this.owns.set(id, o);
    }
    return o;
  }

  /** The entity's own state if the engine knows it (never makes one). */
  peek(id: string): Own | undefined {
    return this.owns.get(id);
  }

  forget(id: string): void {
    this.owns.delete(id);
  }
}

/** The state an entity shows of its own: a manual state wins over its conditions. */
export const shownOwn = (o: Own): number => o.manual ?? o.auto;
