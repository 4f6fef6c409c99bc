// Data annotations in PostgreSQL: the SQLite store's queries, keyset paging by (timestamp, id).
import type { AnnotationQuery, AnnotationRow, AnnotationsStore, NewAnnotation } from '../annotation-types.js';
import { isForeignKeyViolation, type PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { type AnnotationDbRow, toAnnotationRecord, tagsText, ANNOTATION_COLUMNS } from '../rows/annotation-row.js';

export function createPgAnnotationsStore(db: PgDb): AnnotationsStore {
  return {
    async create(row: NewAnnotation) {
      // An entity id that is not one names no entity: the same answer as the foreign key's.
      const entityId = row.entityId === null ? null : rowId(row.entityId);
      if (entityId === undefined) return undefined;
      try {
        const r = await db.one<AnnotationDbRow>(`INSERT INTO history_annotations (timestamp, content, user_id, entity_id, tags, changed)
          VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${ANNOTATION_COLUMNS}`,
          [row.timestamp, row.content, row.userId, entityId, tagsText(row.tags), row.changed]);
        return toAnnotationRecord(r!);
      } catch (err) {
        if (isForeignKeyViolation(err)) return undefined;
        throw err;
      }
    },

    async get(id: string) {
      const key = rowId(id);
      const r = key === undefined ? undefined : await db.one<AnnotationDbRow>(`SELECT ${ANNOTATION_COLUMNS} FROM history_annotations WHERE id = $1`, [key]);
      return r && toAnnotationRecord(r);
    },

    async find(q: AnnotationQuery) {
      const values: unknown[] = [q.from, q.to];
      const where = ['timestamp >= $1', 'timestamp <= $2'];
      const param = (v: unknown) => `$${values.push(v)}`;
      if (q.entityId !== undefined) {
        const entityId = rowId(q.entityId);
        if (entityId === undefined) return [];
        where.push(`entity_id = ${param(entityId)}`);
      }
      // Tags are few per annotation; the range (or entity) index narrows the rows first. The
      // column is JSON text (as in SQLite); jsonb's ? asks whether the array holds the string.
      if (q.tag !== undefined) where.push(`tags::jsonb ? ${param(q.tag)}`);
      if (q.after) {
        const afterId = rowId(q.after.id) ?? 0;
        where.push(`(timestamp, id) > (${param(q.after.timestamp)}, ${param(afterId)})`);
      }
      const sql = `SELECT ${ANNOTATION_COLUMNS} FROM history_annotations WHERE ${where.join(' AND ')}
        ORDER BY timestamp, id LIMIT ${param(q.limit)} OFFSET ${param(q.after ? 0 : (q.skip ?? 0))}`;
      return (await db.rows<AnnotationDbRow>(sql, values)).map(toAnnotationRecord);
    },

    async update(row: AnnotationRow) {
      const key = rowId(row.id);
      const r = key === undefined ? undefined : await db.one<AnnotationDbRow>(`UPDATE history_annotations
        SET timestamp = $1, content = $2, tags = $3, changed = $4 WHERE id = $5 RETURNING ${ANNOTATION_COLUMNS}`,
        [row.timestamp, row.content, tagsText(row.tags), row.changed, key]);
      return r && toAnnotationRecord(r);
    },

    async delete(id: string) {
      const key = rowId(id);
      return key !== undefined && (await db.query('DELETE FROM history_annotations WHERE id = $1', [key])).rowCount! > 0;
    },
  };
}
