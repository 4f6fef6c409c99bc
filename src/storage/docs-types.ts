// Documents of objects and links: an uploaded file kept in the database, or a URL.

export interface DocRow {
  id: string;
  entityId: string;
  name: string;
  /** Set for a URL document; null for a file. */
  url: string | null;
  /** A file's media type and byte length; null for a URL document. */
  contentType: string | null;
  size: number | null;
  /** Who added it. */
  userId: string;
  created: number;
}

/** A file's row with its bytes. */
export interface DocFile extends DocRow {
  content: Buffer;
}

export type NewDoc =
  | (Omit<DocRow, 'id' | 'url' | 'contentType' | 'size'> & { url: null; contentType: string; content: Buffer })
  | (Omit<DocRow, 'id' | 'url' | 'contentType' | 'size'> & { url: string; contentType: null; content: null });

export interface DocsStore {
  /** Undefined when the entity no longer exists (deleted since it was checked). */
  create(doc: NewDoc): Promise<DocRow | undefined>;
  /** An entity's documents, oldest first, without their contents. */
  list(entityId: string, page: { limit: number; skip: number }): Promise<DocRow[]>;
  count(entityId: string): Promise<number>;
  /** The document if it belongs to the entity, with a file's bytes (null for a URL). */
  get(entityId: string, id: string): Promise<(DocRow & { content: Buffer | null }) | undefined>;
  /** False when the entity has no such document. An entity's documents go with the entity (by the store). */
  delete(entityId: string, id: string): Promise<boolean>;
}
