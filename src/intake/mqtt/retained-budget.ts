// The broker keeps retained messages in memory: this bounds them in count (topics) and bytes.
// It only accounts; aedes stores the messages. A publish that turns out not to be kept
// (refused, too large, shed) puts the accounting back as it was.
export class RetainedBudget {
  private readonly sizes = new Map<string, number>();
  private bytes = 0;

  constructor(private readonly maxTopics: number, private readonly maxBytes: number) {}

  /** What the topic holds now (undefined: nothing), to hand back to `undo`. */
  before(topic: string): number | undefined {
    return this.sizes.get(topic);
  }

  /** Takes a retained message of `size` bytes for the topic if it fits; an empty one clears the topic. */
  allow(topic: string, size: number): boolean {
    const before = this.sizes.get(topic) ?? 0;
    if (size === 0) {
      this.sizes.delete(topic);
      this.bytes -= before;
      return true;
    }
    if ((before === 0 && this.sizes.size >= this.maxTopics) || this.bytes - before + size > this.maxBytes) return false;
    this.sizes.set(topic, size);
    this.bytes += size - before;
    return true;
  }

  /** Puts the topic's accounting back as it was before a publish that was then not kept. */
  undo(topic: string, before: number | undefined): void {
    this.bytes += (before ?? 0) - (this.sizes.get(topic) ?? 0);
    if (before === undefined) this.sizes.delete(topic);
    else this.sizes.set(topic, before);
  }

  get usage(): { topics: number; bytes: number } {
    return { topics: this.sizes.size, bytes: this.bytes };
  }
}
