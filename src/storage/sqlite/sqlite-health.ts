// Whether the embedded database answers (readiness). A read, not through the write gate: reads
// go on while a long write holds it, so a bulk change does not make the server look down.
import type Database from 'better-sqlite3';
import type { StorageHealth } from '../types.js';

export function sqliteHealth(db: Database.Database): StorageHealth {
  const select = db.prepare('SELECT 1');
  return {
    backend: 'sqlite',
    // Synchronous: it answers at once or throws (a closed or broken file); no timeout to apply.
    ping: async () => void select.get(),
  };
}
