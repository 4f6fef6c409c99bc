import type Database from 'better-sqlite3';
import type { TriggerRunsStore } from '../trigger-types.js';
import type { WriteGate } from './write-gate.js';

export function createSqliteTriggerRunsStore(_db: Database.Database, _gate: WriteGate): TriggerRunsStore {
  return {};
}
