// What a service returns for a list route: the records and how to show each one, so the
// route can send a long list as a stream (http/record-list.ts) without the service knowing.

export interface RecordList<T = unknown> {
  items: readonly T[];
  view: (item: T) => object;
}

/** A page of a longer list (http/paged-list.ts sends its X-Total-Count and Link headers). */
export interface PagedList<T> extends RecordList<T> {
  /** How many the whole list holds for this caller. */
  total: number;
}
