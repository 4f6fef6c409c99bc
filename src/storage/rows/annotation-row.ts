// A history_annotations row as both dialects store it (same columns; tags as JSON text), the
// select list, and the mapping both ways, kept once for SQLite and PostgreSQL. (The record
// type is the interface's AnnotationRow, hence AnnotationDbRow for the table's row.)
import type { AnnotationRow } from '../annotation-types.js';

export interface AnnotationDbRow {
  id: number;
  timestamp: number;
  content: string;
  user_id: number;
  entity_id: number | null;
  tags: string | null;
  changed: number;
}

export const toAnnotationRecord = (r: AnnotationDbRow): AnnotationRow => ({
  id: String(r.id),
  timestamp: r.timestamp,
  content: r.content,
  userId: String(r.user_id),
  entityId: r.entity_id === null ? null : String(r.entity_id),
  tags: r.tags === null ? null : (JSON.parse(r.tags) as string[]),
  changed: r.changed,
});

/** The tags column's text for a record's tags. */
export const tagsText = (tags: string[] | null) => (tags === null ? null : JSON.stringify(tags));
export const ANNOTATION_COLUMNS = 'id, timestamp, content, user_id, entity_id, tags, changed';
