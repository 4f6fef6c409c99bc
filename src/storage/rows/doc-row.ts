// A documents row without its bytes, as both dialects select it for lists and lookups, and
// the row → record mapping, kept once for SQLite and PostgreSQL. (The record type is the
// interface's DocRow, hence DocDbRow for the table's row.)
import type { DocRow } from '../docs-types.js';

export interface DocDbRow {
  id: number;
  /** An INTEGER/bigint column (the SQLite store typed it loosely); String() gives the record's id either way. */
  entity_id: number | string;
  name: string;
  url: string | null;
  content_type: string | null;
  size: number | null;
  user_id: string;
  created: number;
}

/** Every column but the file's bytes. */
export const DOC_COLUMNS = 'id, entity_id, name, url, content_type, size, user_id, created';

export const toDocRecord = (r: DocDbRow): DocRow => ({
  id: String(r.id),
  entityId: String(r.entity_id),
  name: r.name,
  url: r.url,
  contentType: r.content_type,
  size: r.size,
  userId: r.user_id,
  created: r.created,
});
