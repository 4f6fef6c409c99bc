// Counts the broker's hooks still running (sign-ins, publishes being stored), so stop() can
// wait for them. A counter, not a set of promises: this is touched once per message.
export class InFlight {
  private count = 0;
  private idle: (() => void) | undefined;

  begin(): void {
    this.count++;
  }

  end(): void {
    if (--this.count === 0) this.idle?.();
  }

  /** Resolves when nothing is running (at once if nothing is). */
  settled(): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise<void>((r) => (this.idle = r));
  }
}
