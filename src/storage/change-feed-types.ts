// The change feed (SCALE-OUT.md "read models follow a change feed"): every change that other
// nodes keep in memory (a user's record, a session) is appended with a sequence number; each
// node reads what the others appended after the last sequence it saw and refreshes its copy.

export interface ChangeRow {
  seq: number;
  /** What changed, e.g. 'users'. */
  topic: string;
  /** Which one, e.g. a user id. */
  key: string;
  /** The node that made the change (it has applied it already). */
  origin: string;
  /** What the change was, for readers that apply it rather than re-read (JSON); undefined: none. */
  payload: string | undefined;
  /** When it was appended, ms (database clock). */
  at: number;
}

/** A row to append to the change feed in the transaction of the change it tells of (the outbox). */
export interface FeedRow {
  topic: string;
  key: string;
  origin: string;
  payload?: string;
}

export interface ChangeFeedStore {
  append(topic: string, key: string, origin: string, payload?: string): Promise<void>;
  /** The rows of these sequences that are there (in order). */
  pick(seqs: readonly number[]): Promise<ChangeRow[]>;
  /** Rows with a sequence above `seq`, in order, at most `limit`. */
  after(seq: number, limit: number): Promise<ChangeRow[]>;
  /**
   * The highest sequence of the rows there (0: none): reading after it gives only what is
   * appended later. (Not the sequence's own counter: on PostgreSQL it may name a row whose
   * transaction has not committed yet, which a reader starting there would never see.)
   */
  last(): Promise<number>;
  /** Removes rows appended before `before` (database clock, ms). */
  purge(before: number): Promise<void>;
}
