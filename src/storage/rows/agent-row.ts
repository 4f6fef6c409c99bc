// An agents row as both dialects store it, the select list, and the row → record mapping,
// kept once for SQLite and PostgreSQL. (The record type is the interface's AgentRow, hence
// AgentDbRow for the table's row.)
import type { AgentRow } from '../agent-types.js';

export interface AgentDbRow {
  id: number;
  name: string;
  user_id: number;
  version: string;
  address: string;
  created: number;
  last_seen: number;
}

export const toAgentRecord = (r: AgentDbRow): AgentRow => ({
  id: String(r.id), name: r.name, userId: String(r.user_id), version: r.version, address: r.address, created: r.created, lastSeen: r.last_seen,
});

export const AGENT_COLUMNS = 'id, name, user_id, version, address, created, last_seen';
