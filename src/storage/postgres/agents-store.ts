// Remote agents in PostgreSQL: a taken name is refused by the unique name (ON CONFLICT, so
// racing registrations, on one node or several, store the name once and raise no error).
import type { AgentsStore, NewAgent } from '../agent-types.js';
import type { PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { type AgentDbRow, toAgentRecord, AGENT_COLUMNS } from '../rows/agent-row.js';

export function createPgAgentsStore(db: PgDb): AgentsStore {
  return {
    all: async () => (await db.rows<AgentDbRow>(`SELECT ${AGENT_COLUMNS} FROM agents ORDER BY id`)).map(toAgentRecord),
    async create(row: NewAgent) {
      const r = await db.one<AgentDbRow>(`INSERT INTO agents (name, user_id, version, address, created, last_seen) VALUES ($1, $2, $3, $4, $5, $6)
        ON CONFLICT (name) DO NOTHING RETURNING ${AGENT_COLUMNS}`, [row.name, row.userId, row.version, row.address, row.created, row.lastSeen]);
      return r && toAgentRecord(r);
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
