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
  create(row: NewAnnotation): Promise<AnnotationRow>;
  get(id: string): Promise<AnnotationRow | undefined>;
  /** Oldest first, by timestamp then id. */
  find(query: AnnotationQuery): Promise<AnnotationRow[]>;
  /** Stores the row's content, timestamp, tags and changed; undefined when it is gone. */
  update(row: AnnotationRow): Promise<AnnotationRow | undefined>;
  delete(id: string): Promise<boolean>;
  /** Deletes the annotations of these entities; answers how many. */
  deleteForEntities(entityIds: string[]): Promise<number>;
  /** Every entity id that has annotations. */
  entityIds(): Promise<string[]>;
}
