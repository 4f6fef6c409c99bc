import type Database from 'better-sqlite3';
import type { AgentsStore, NewAgent } from '../agent-types.js';
import type { WriteGate } from './write-gate.js';
import { type AgentDbRow, toAgentRecord, AGENT_COLUMNS } from '../rows/agent-row.js';

export function createSqliteAgentsStore(db: Database.Database, gate: WriteGate): AgentsStore {
  const all = db.prepare(`SELECT ${AGENT_COLUMNS} FROM agents ORDER BY id`);
  const insert = db.prepare(`INSERT INTO agents (name, user_id, version, address, created, last_seen) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT(name) DO NOTHING RETURNING ${AGENT_COLUMNS}`);
  const seen = db.prepare('UPDATE agents SET last_seen = ?, address = ?, version = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM agents WHERE id = ?');
  return {
    all: async () => (all.all() as AgentDbRow[]).map(toAgentRecord),
    create: (row: NewAgent) => gate.run(() => {
      const r = insert.get(row.name, Number(row.userId), row.version, row.address, row.created, row.lastSeen) as AgentDbRow | undefined;
      return r && toAgentRecord(r);
    }),
    seen: (id, lastSeen, address, version) => gate.run(() => {
      seen.run(lastSeen, address, version, Number(id));
    }),
    delete: (id: string) => gate.run(() => remove.run(Number(id)).changes > 0),
  };
}
