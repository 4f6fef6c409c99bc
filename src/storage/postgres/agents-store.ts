// Remote agents in PostgreSQL: a taken name is refused by the unique name (ON CONFLICT, so
// racing registrations, on one node or several, store the name once and raise no error).
import type { AgentRow, AgentsStore, NewAgent } from '../agent-types.js';
import type { PgDb } from './pg-db.js';
import { rowId } from './row-id.js';

interface Row {
  id: number;
  name: string;
  user_id: number;
  version: string;
  address: string;
  created: number;
  last_seen: number;
}

const fromRow = (r: Row): AgentRow => ({
  id: String(r.id), name: r.name, userId: String(r.user_id), version: r.version, address: r.address, created: r.created, lastSeen: r.last_seen,
});

const COLUMNS = 'id, name, user_id, version, address, created, last_seen';

export function createPgAgentsStore(db: PgDb): AgentsStore {
  return {
    all: async () => (await db.rows<Row>(`SELECT ${COLUMNS} FROM agents ORDER BY id`)).map(fromRow),
    async create(row: NewAgent) {
      const r = await db.one<Row>(`INSERT INTO agents (name, user_id, version, address, created, last_seen) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (name) DO NOTHING RETURNING ${COLUMNS}`, [row.name, row.userId, row.version, row.address, row.created, row.lastSeen]);
      return r && fromRow(r);
    },
    async seen(id, lastSeen, address, version) {
      const key = rowId(id);
      if (key !== undefined) await db.query('UPDATE agents SET last_seen = $1, address = $2, version = $3 WHERE id = $4', [lastSeen, address, version, key]);
    },
    async delete(id: string) {
      const key = rowId(id);
      return key !== undefined && (await db.query('DELETE FROM agents WHERE id = $1', [key])).rowCount! > 0;
    },
  };
}
