// A clock a test moves by hand, for services whose behaviour depends on the time of day or on
// long waits (maintenance windows, repeats, escalations). It starts at real time and runs on
// with it, so timers armed from real time still fire; `advance` jumps ahead.
export class TestClock {
  private offset = 0;
  constructor(start?: number) {
    if (start !== undefined) this.offset = start - Date.now();
  }
  /** The function to hand to startTestServer's `clock` option. */
  readonly now = (): number => Date.now() + this.offset;
  advance(ms: number): void {
    this.offset += ms;
  }
  /** Jumps to an absolute time (forwards or back). */
  set(ms: number): void {
    this.offset = ms - Date.now();
  }
}
