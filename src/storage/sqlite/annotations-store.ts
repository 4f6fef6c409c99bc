import type Database from 'better-sqlite3';
import type { AnnotationQuery, AnnotationRow, AnnotationsStore, NewAnnotation } from '../annotation-types.js';
import { statementCache } from './statement-cache.js';
import type { WriteGate } from './write-gate.js';
import { type AnnotationDbRow, toAnnotationRecord, tagsText, ANNOTATION_COLUMNS } from '../rows/annotation-row.js';

export function createSqliteAnnotationsStore(db: Database.Database, gate: WriteGate): AnnotationsStore {
  const insert = db.prepare(`INSERT INTO history_annotations (timestamp, content, user_id, entity_id, tags, changed)
    VALUES (?, ?, ?, ?, ?, ?) RETURNING ${ANNOTATION_COLUMNS}`);
  const byId = db.prepare(`SELECT ${ANNOTATION_COLUMNS} FROM history_annotations WHERE id = ?`);
  const change = db.prepare(`UPDATE history_annotations SET timestamp = ?, content = ?, tags = ?, changed = ?
    WHERE id = ? RETURNING ${ANNOTATION_COLUMNS}`);
  const remove = db.prepare('DELETE FROM history_annotations WHERE id = ?');
  // The optional filters (entity, tag, cursor) make a few shapes, each prepared once.
  const prepared = statementCache(db, 16);

  return {
    create: (row: NewAnnotation) =>
      gate.run(() => {
        try {
          return toAnnotationRecord(insert.get(row.timestamp, row.content, Number(row.userId), row.entityId === null ? null : Number(row.entityId), tagsText(row.tags), row.changed) as AnnotationDbRow);
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return undefined;
          throw err;
        }
      }),

    get: async (id: string) => {
      const r = byId.get(Number(id)) as AnnotationDbRow | undefined;
      return r && toAnnotationRecord(r);
    },

    async find(q: AnnotationQuery) {
      const where = ['timestamp >= ?', 'timestamp <= ?'];
      const params: unknown[] = [q.from, q.to];
      if (q.entityId !== undefined) where.push('entity_id = ?'), params.push(Number(q.entityId));
      // Tags are few per annotation; the range (or entity) index narrows the rows first.
      if (q.tag !== undefined) where.push('EXISTS (SELECT 1 FROM json_each(tags) WHERE value = ?)'), params.push(q.tag);
      if (q.after) where.push('(timestamp > ? OR (timestamp = ? AND id > ?))'), params.push(q.after.timestamp, q.after.timestamp, Number(q.after.id));
      const sql = `SELECT ${ANNOTATION_COLUMNS} FROM history_annotations WHERE ${where.join(' AND ')} ORDER BY timestamp, id LIMIT ? OFFSET ?`;
      return (prepared(sql).all(...params, q.limit, q.after ? 0 : (q.skip ?? 0)) as AnnotationDbRow[]).map(toAnnotationRecord);
    },

    update: (row: AnnotationRow) =>
      gate.run(() => {
        const r = change.get(row.timestamp, row.content, tagsText(row.tags), row.changed, Number(row.id)) as AnnotationDbRow | undefined;
        return r && toAnnotationRecord(r);
      }),

    delete: (id: string) => gate.run(() => remove.run(Number(id)).changes > 0),

  };
}
