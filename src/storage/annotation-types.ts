// Data annotations: a note on a point in time, optionally on one entity and with free-form
// tags, so that a chart shows only the notes that belong to it.

export interface AnnotationRow {
  id: string;
  timestamp: number;
  content: string;
  /** The author's user id (stays the author's through every change). */
  userId: string;
  entityId: string | null;
  tags: string[] | null;
  /** ms of the last change (the creation time at first). */
  changed: number;
}

export type NewAnnotation = Omit<AnnotationRow, 'id'>;

export interface AnnotationQuery {
  /** Inclusive bounds on `timestamp`. */
  from: number;
  to: number;
  entityId?: string;
  tag?: string;
  /** Keyset cursor: only annotations after this (timestamp, id) pair. */
  after?: { timestamp: number; id: string };
  limit: number;
  /** Offset, used only when no cursor is given. */
  skip?: number;
}

export interface AnnotationsStore {
  /** Undefined when the row's entity no longer exists (deleted since it was checked). */
  create(row: NewAnnotation): Promise<AnnotationRow | undefined>;
  get(id: string): Promise<AnnotationRow | undefined>;
  /** Oldest first, by timestamp then id. */
  find(query: AnnotationQuery): Promise<AnnotationRow[]>;
  /** Stores the row's content, timestamp, tags and changed; undefined when it is gone. */
  update(row: AnnotationRow): Promise<AnnotationRow | undefined>;
  /** An entity's annotations are deleted with the entity itself (by the store). */
  delete(id: string): Promise<boolean>;
}
