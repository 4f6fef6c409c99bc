import type Database from 'better-sqlite3';
import type { IncidentsStore } from '../incidents-types.js';
import type { WriteGate } from './write-gate.js';

export function createSqliteIncidentsStore(_db: Database.Database, _gate: WriteGate): IncidentsStore {
  return {};
}
