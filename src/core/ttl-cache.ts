// A bounded map whose entries expire. Bounded so that a flood of distinct keys (random
// passwords, random tokens) cannot grow memory without limit: the oldest entries go first.
export class TtlCache<V> {
  private readonly map = new Map<string, { value: V; expires: number }>();
  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly clock: () => number,
  ) {}

  get(key: string): V | undefined {
    const e = this.map.get(key);
    if (!e) return undefined;
    if (e.expires <= this.clock()) {
      this.map.delete(key);
      return undefined;
    }
    return e.value;
  }

  set(key: string, value: V, ttlMs = this.ttlMs): void {
    if (ttlMs <= 0) return;
    this.map.delete(key);
    if (this.map.size >= this.maxEntries) this.map.delete(this.map.keys().next().value!);
    this.map.set(key, { value, expires: this.clock() + ttlMs });
  }

  delete(key: string): void {
    this.map.delete(key);
  }

  deleteWhere(test: (value: V) => boolean): void {
    for (const [k, e] of this.map) if (test(e.value)) this.map.delete(k);
  }

  get size(): number {
    return this.map.size;
  }
}
