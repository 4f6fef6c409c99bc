import type Database from 'better-sqlite3';
import type { AgentRow, AgentsStore, NewAgent } from '../agent-types.js';
import type { WriteGate } from './write-gate.js';

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

export function createSqliteAgentsStore(db: Database.Database, gate: WriteGate): AgentsStore {
  const all = db.prepare(`SELECT ${COLUMNS} FROM agents ORDER BY id`);
  const insert = db.prepare(`INSERT INTO agents (name, user_id, version, address, created, last_seen) VALUES (?, ?, ?, ?, ?, ?)
    ON CONFLICT(name) DO NOTHING RETURNING ${COLUMNS}`);
  const seen = db.prepare('UPDATE agents SET last_seen = ?, address = ?, version = ? WHERE id = ?');
  const remove = db.prepare('DELETE FROM agents WHERE id = ?');
  return {
    all: async () => (all.all() as Row[]).map(fromRow),
    create: (row: NewAgent) => gate.run(() => {
      const r = insert.get(row.name, Number(row.userId), row.version, row.address, row.created, row.lastSeen) as Row | undefined;
      return r && fromRow(r);
    }),
    seen: (id, lastSeen, address, version) => gate.run(() => {
      seen.run(lastSeen, address, version, Number(id));
    }),
    delete: (id: string) => gate.run(() => remove.run(Number(id)).changes > 0),
  };
}
