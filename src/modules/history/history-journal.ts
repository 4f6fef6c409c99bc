// The intake journal, owned by history: each accepted batch is appended durably (with the
// series it introduces) before it is acknowledged and before it reaches the in-memory heads;
// a checkpoint trims what it has made durable otherwise; at start the rest is read back and
// replayed by the intake. The entry format is this file's business alone.
import type { StatItem } from '../../core/pipeline/stat-item.js';
import type { HistoryStore } from '../../storage/history-types.js';
import type { SeriesIndex } from './series-index.js';

/** A journal entry: [entityId, timestamp, payload], and 1 when the payload extends the last one. */
type JournalEntry = [string, number, Record<string, unknown>, 1?];

export type JournalVisitor = (journalId: number, entityId: string, timestamp: number, payload: Record<string, unknown>, extend: boolean) => void;

export function createHistoryJournal({ store, series }: { store: HistoryStore; series: SeriesIndex }) {
  /** Writes in flight (forgetting an entity waits for them). */
  const writing = new Set<Promise<unknown>>();

  /** Writes an entry with the series its items need and the index lacks; the store gives their ids. */
  async function write(body: string, items: readonly StatItem[]): Promise<number> {
    const p = store.appendJournal(body, series.unknownIn(items));
    writing.add(p);
    try {
      const { id, series: stored } = await p;
      // Known from now on, before the caller records the items (it does so after this resolves).
      for (const row of stored) series.add(row);
      return id;
    } finally {
      writing.delete(p);
    }
  }

  return {
    /** Appends a batch (history takes `payload`, what came); returns the entry's id. */
    async append(items: readonly StatItem[]): Promise<number> {
      return write(JSON.stringify(items.map((i): JournalEntry => (i.extend ? [i.entityId, i.timestamp, i.payload, 1] : [i.entityId, i.timestamp, i.payload]))), items);
    },

    /** Visits every payload of the journal in order; returns the id of its last entry (0: empty). */
    async read(visit: JournalVisitor): Promise<number> {
      let lastId = 0;
      await store.readJournal((id, body) => {
        lastId = id;
        for (const [entityId, timestamp, payload, extend] of JSON.parse(body) as JournalEntry[]) visit(id, entityId, timestamp, payload, extend === 1);
      });
      return lastId;
    },

    /**
     * Stores the series that replayed items need (their rows died with the crash that left the
     * journal) in an empty entry; returns its id, or undefined when there were none to add.
     */
    async addSeries(items: readonly StatItem[]): Promise<number | undefined> {
      return series.unknownIn(items).length > 0 ? write('[]', items) : undefined;
    },

    /** Resolves once the writes in flight (if any) are done, whatever their outcome. */
    async settled(): Promise<void> {
      await Promise.allSettled([...writing]);
    },
  };
}

export type HistoryJournal = ReturnType<typeof createHistoryJournal>;
