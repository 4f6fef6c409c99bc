// Events (traps, MQTT messages) arrive in bursts of datagrams: the entities they concern are
// evaluated in one pass, not one pass per event. A batch opens with the first event, is handed
// to `run` at the next turn of the event loop, and keeps taking events until `run` takes its
// ids (when the pass really starts, after any pass ahead of it in the engine's queue).
export class EventBatches {
  private ids = new Set<string>();
  private pending: Promise<void> | undefined;

  /**
   * `run` gets the function that closes the batch and answers its ids; `nextTurn` schedules the
   * batch's start (the next turn of the event loop; a test may step it by hand).
   */
  constructor(
    private readonly run: (take: () => Set<string>) => Promise<void>,
    private readonly nextTurn: (start: () => void) => void = (start) => setImmediate(start),
  ) {}

  /** Adds the entity to the open batch; resolves once that batch has run. */
  add(entityId: string): Promise<void> {
    this.ids.add(entityId);
    this.pending ??= new Promise<void>((r) => this.nextTurn(r)).then(() => this.run(() => this.take()));
    return this.pending;
  }

  private take(): Set<string> {
    const ids = this.ids;
    this.ids = new Set();
    this.pending = undefined;
    return ids;
  }

  /** Resolves once no batch waits to start (one that waits is not in the engine's queue yet). */
  async settled(): Promise<void> {
    while (this.pending) await this.pending.catch(() => undefined);
  }
}
