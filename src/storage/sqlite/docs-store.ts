// Documents of objects and links in SQLite: the bytes of a file in a BLOB column, read only
// when the file itself is asked for (lists select the other columns).
import type Database from 'better-sqlite3';
import type { DocsStore, NewDoc } from '../docs-types.js';
import type { WriteGate } from './write-gate.js';
import { type DocDbRow, toDocRecord, DOC_COLUMNS } from '../rows/doc-row.js';

/** Ids as the API gives them: a document id that is not an integer names nothing. */
const docKey = (id: string): number | undefined => (/^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : undefined);

export function createSqliteDocsStore(db: Database.Database, gate: WriteGate): DocsStore {
  // Entity ids are bound as given: the column's INTEGER affinity stores and compares them as
  // the entities table keys them.
  const insert = db.prepare(`INSERT INTO entity_docs (entity_id, name, url, content_type, size, content, user_id, created)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${DOC_COLUMNS}`);
  const page = db.prepare(`SELECT ${DOC_COLUMNS} FROM entity_docs WHERE entity_id = ? ORDER BY id LIMIT ? OFFSET ?`);
  const counted = db.prepare('SELECT count(*) AS n FROM entity_docs WHERE entity_id = ?');
  const one = db.prepare(`SELECT ${DOC_COLUMNS}, content FROM entity_docs WHERE entity_id = ? AND id = ?`);
  const remove = db.prepare('DELETE FROM entity_docs WHERE entity_id = ? AND id = ?');

  return {
    create: (doc: NewDoc) =>
      gate.run(() => {
        const size = doc.content === null ? null : doc.content.length;
        try {
          return toDocRecord(insert.get(doc.entityId, doc.name, doc.url, doc.contentType, size, doc.content, doc.userId, doc.created) as DocDbRow);
        } catch (err) {
          if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return undefined;
          throw err;
        }
      }),

    list: async (entityId, p) => (page.all(entityId, p.limit, p.skip) as DocDbRow[]).map(toDocRecord),

    count: async (entityId) => (counted.get(entityId) as { n: number }).n,

    get: async (entityId, id) => {
      const key = docKey(id);
      const r = key === undefined ? undefined : (one.get(entityId, key) as (DocDbRow & { content: Buffer | null }) | undefined);
      return r && { ...toDocRecord(r), content: r.content };
    },

    delete: (entityId, id) => {
      const key = docKey(id);
      return key === undefined ? Promise.resolve(false) : gate.run(() => remove.run(entityId, key).changes > 0);
    },
  };
}
