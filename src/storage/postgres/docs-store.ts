// Documents of objects and links in PostgreSQL: the bytes of a file in a bytea column, read
// only when the file itself is asked for (lists select the other columns).
import type { DocsStore, NewDoc } from '../docs-types.js';
import { isForeignKeyViolation, type PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { type DocDbRow, toDocRecord, DOC_COLUMNS } from '../rows/doc-row.js';

export function createPgDocsStore(db: PgDb): DocsStore {
  return {
    async create(doc: NewDoc) {
      // An entity id that is not one names no entity: the same answer as the foreign key's.
      const entityId = rowId(doc.entityId);
      if (entityId === undefined) return undefined;
      const size = doc.content === null ? null : doc.content.length;
      try {
        const r = await db.one<DocDbRow>(`INSERT INTO entity_docs (entity_id, name, url, content_type, size, content, user_id, created)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${DOC_COLUMNS}`,
          [entityId, doc.name, doc.url, doc.contentType, size, doc.content, doc.userId, doc.created]);
        return toDocRecord(r!);
      } catch (err) {
        if (isForeignKeyViolation(err)) return undefined;
        throw err;
      }
    },

    async list(entityId, p) {
      const key = rowId(entityId);
      if (key === undefined) return [];
      return (await db.rows<DocDbRow>(`SELECT ${DOC_COLUMNS} FROM entity_docs WHERE entity_id = $1 ORDER BY id LIMIT $2 OFFSET $3`,
        [key, p.limit, p.skip])).map(toDocRecord);
    },

    async count(entityId) {
      const key = rowId(entityId);
      return key === undefined ? 0 : (await db.one<{ n: number }>('SELECT count(*) AS n FROM entity_docs WHERE entity_id = $1', [key]))!.n;
    },

    async get(entityId, id) {
      const [entity, key] = [rowId(entityId), rowId(id)];
      if (entity === undefined || key === undefined) return undefined;
      const r = await db.one<DocDbRow & { content: Buffer | null }>(`SELECT ${DOC_COLUMNS}, content FROM entity_docs WHERE entity_id = $1 AND id = $2`, [entity, key]);
      return r && { ...toDocRecord(r), content: r.content };
    },

    async delete(entityId, id) {
      const [entity, key] = [rowId(entityId), rowId(id)];
      if (entity === undefined || key === undefined) return false;
      return (await db.query('DELETE FROM entity_docs WHERE entity_id = $1 AND id = $2', [entity, key])).rowCount! > 0;
    },
  };
}
