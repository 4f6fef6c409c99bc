// Folding repeats of one security event into counted records. A client can repeat a refused
// request as fast as it can send it (a locked login, a stale cookie, a device publishing without
// the right): one record per repeat would let it flood the log, dropping repeats would hide how
// hard someone tried. So the first occurrence of a key is written at once (count 1), repeats
// within the interval are only counted, and the count is written as one more record (count N)
// when the interval ends, when the log is flushed (every read flushes: a reader sees all that
// happened before the read), or when the key is evicted. The counts of a key's records add up
// to the number of occurrences: nothing is dropped.

export interface RepeatFolder<T> {
  /** Counts one occurrence of `key`: written now if it opens a series, else folded. */
  hit(key: string, event: T): void;
  /** Counts one more occurrence if a series of `key` is open; false when none is (nothing counted). */
  repeat(key: string): boolean;
  /** Writes the counts folded so far; series still within their interval stay open. */
  drain(): void;
}

interface Series<T> {
  since: number;
  /** The latest occurrence, which the count record describes (same key, so the same event). */
  last: T;
  lastAt: number;
  folded: number;
}

export interface RepeatFolderOptions<T> {
  intervalMs: number;
  /** Open series kept at most; the oldest is written out and closed to make room. */
  maxKeys: number;
  clock: () => number;
  /** Writes one record of `count` occurrences, the latest at `at`. */
  write(event: T, count: number, at: number): void;
}

export function createRepeatFolder<T>({ intervalMs, maxKeys, clock, write }: RepeatFolderOptions<T>): RepeatFolder<T> {
  const open = new Map<string, Series<T>>();
  let timer: NodeJS.Timeout | undefined;

  const writeFolded = (s: Series<T>) => {
    if (s.folded === 0) return;
    write(s.last, s.folded, s.lastAt);
    s.folded = 0;
  };

  function drain(): void {
    const now = clock();
    for (const [key, s] of open) {
      writeFolded(s);
      if (now - s.since >= intervalMs) open.delete(key);
    }
  }

  // A sweep only while series are open, so an idle log keeps no timer.
  function schedule(): void {
    timer ??= setTimeout(() => {
      timer = undefined;
      drain();
      if (open.size > 0) schedule();
    }, intervalMs).unref();
  }

  function current(key: string, now: number): Series<T> | undefined {
    const s = open.get(key);
    if (s && now - s.since < intervalMs) return s;
    if (s) {
      writeFolded(s);
      open.delete(key);
    }
    return undefined;
  }

  return {
    hit(key, event) {
      const now = clock();
      const s = current(key, now);
      if (s) {
        s.folded++;
        s.last = event;
        s.lastAt = now;
        return;
      }
      if (open.size >= maxKeys) {
        const [oldestKey, oldest] = open.entries().next().value!;
        writeFolded(oldest);
        open.delete(oldestKey);
      }
      open.set(key, { since: now, last: event, lastAt: now, folded: 0 });
      write(event, 1, now);
      schedule();
    },

    repeat(key) {
      const now = clock();
      const s = current(key, now);
      if (!s) return false;
      s.folded++;
      s.lastAt = now;
      return true;
    },

    drain,
  };
}
