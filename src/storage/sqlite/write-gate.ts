// Every store shares one SQLite connection. A large catalog batch is written in slices inside
// one transaction, with the event loop free between slices so reads go on being answered;
// meanwhile any other write on the connection would land inside that transaction (and share
// its fate). The gate makes other writes wait until it has committed. Without a long write
// in progress a write runs at once, synchronously, as before.
export class WriteGate {
  private held: Promise<void> | undefined;

  /** Runs a (synchronous) write now, or once the long write holding the gate is done. */
  async run<T>(write: () => T): Promise<T> {
    while (this.held) await this.held;
    return write();
  }

  /** Holds the gate for `work`: no other write runs until it settles. */
  async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.held) await this.held;
    let release!: () => void;
    this.held = new Promise((resolve) => (release = resolve));
    try {
      return await work();
    } finally {
      this.held = undefined;
      release();
    }
  }
}
