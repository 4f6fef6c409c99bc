// Runs jobs with at most `maxInFlight` at a time and at most `maxWaiting` waiting, so a storm of
// state changes (a whole site going down) cannot open thousands of sockets at once or grow
// without bound. A job refused because the queue is full gets `onDropped` instead.
export interface SendQueueOptions {
  maxInFlight: number;
  maxWaiting: number;
}

export interface Job {
  run(): Promise<void>;
  /** Called instead of `run` when the job is refused (queue full) or abandoned (`drain`). */
  dropped(why: string): Promise<void>;
}

export class SendQueue {
  private readonly waiting: Job[] = [];
  /** Jobs holding one of the `maxInFlight` slots. */
  private readonly running = new Set<Promise<void>>();
  /** Refused or abandoned jobs recording that (no socket, no slot). */
  private readonly dropping = new Set<Promise<void>>();
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly options: SendQueueOptions) {}

  get size(): { running: number; waiting: number } {
    return { running: this.running.size, waiting: this.waiting.length };
  }

  push(job: Job): void {
    if (this.running.size < this.options.maxInFlight) this.track(this.running, job.run());
    else if (this.waiting.length < this.options.maxWaiting) this.waiting.push(job);
    else this.track(this.dropping, job.dropped(`dropped: more than ${this.options.maxWaiting} sends were waiting`));
  }

  /** Resolves once nothing runs and nothing waits. */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Abandons every waiting job (each gets `dropped(why)`), then waits for those running. */
  async drain(why: string): Promise<void> {
    for (const job of this.waiting.splice(0)) this.track(this.dropping, job.dropped(why));
    await this.idle();
  }

  private isIdle(): boolean {
    return this.running.size === 0 && this.dropping.size === 0 && this.waiting.length === 0;
  }

  /** Jobs catch their own errors; a rejection here is a bug, and still must not stop the queue. */
  private track(set: Set<Promise<void>>, work: Promise<void>): void {
    const p: Promise<void> = work
      .catch(() => undefined)
      .finally(() => {
        set.delete(p);
        if (set === this.running) {
          const next = this.waiting.shift();
          if (next) this.track(this.running, next.run());
        }
        if (this.isIdle()) for (const wake of this.idleWaiters.splice(0)) wake();
      });
    set.add(p);
  }
}
