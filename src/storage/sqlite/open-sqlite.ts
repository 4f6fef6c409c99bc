// Opens (creating if needed) the embedded SQLite database in DATA_DIR and assembles the stores.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { ensurePrivateFile, securePrivateDir } from '../data-dir.js';
import type { Storage, StorageCapabilities } from '../types.js';
import { createSqliteCatalogStore } from './catalog-store.js';
import { createSqliteHistoryStore } from './history-store.js';
import { createSqliteIncidentsStore } from './incidents-store.js';
import { createSqliteTriggerRunsStore } from './trigger-runs-store.js';
import { migrate } from './migrator.js';
import { createSqliteEventLogStore } from './event-log-store.js';
import { createSqliteSecurityLogStore } from './security-log-store.js';
import { createSqliteSessionsStore } from './sessions-store.js';
import { createSqliteUsersStore } from './users-store.js';
import { createSqliteAnnotationsStore } from './annotations-store.js';
import { createSqlitePresetsStore } from './presets-store.js';
import { createSqliteMaintenanceStore } from './maintenance-store.js';
import { createSqliteClusterStore } from './cluster-store.js';
import { createSqliteChangeFeedStore } from './change-feed-store.js';
import { createSqliteLockoutStore } from './lockout-store.js';
import { createSqliteNotificationConfigStore } from './notification-config-store.js';
import { createSqliteAgentsStore } from './agents-store.js';
import { createSqliteDocsStore } from './docs-store.js';
import { createSqliteEngineMemoryStore } from './engine-memory-store.js';
import { WriteGate } from './write-gate.js';
import { sqliteHealth } from './sqlite-health.js';

export const SQLITE_FILE = 'vigil.db';

/** Queries run on the server's thread; the file in DATA_DIR belongs to one process. */
export const SQLITE_CAPABILITIES: StorageCapabilities = Object.freeze({ blockingQueries: true, sharedByNodes: false });

export function openSqliteStorage(dataDir: string): Storage {
  // Private to the server's account (see data-dir.ts); -wal and -shm take the file's mode.
  securePrivateDir(dataDir);
  ensurePrivateFile(join(dataDir, SQLITE_FILE));
  const db = new Database(join(dataDir, SQLITE_FILE));
  try {
    db.pragma('journal_mode = WAL');
    // NORMAL is durable across application crashes in WAL mode; only a power cut can lose
    // the last commits. foreign_keys makes ON DELETE CASCADE work.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    migrate(db);
  } catch (err) {
    db.close();
    throw err;
  }
  const gate = new WriteGate();
  const eventLog = createSqliteEventLogStore(dataDir);
  return {
    capabilities: SQLITE_CAPABILITIES,
    users: createSqliteUsersStore(db, gate),
    sessions: createSqliteSessionsStore(db, gate),
    securityLog: createSqliteSecurityLogStore(db, gate),
    catalog: createSqliteCatalogStore(db, gate),
    history: createSqliteHistoryStore(db, gate),
    incidents: createSqliteIncidentsStore(db, gate),
    triggerRuns: createSqliteTriggerRunsStore(db, gate),
    eventLog,
    annotations: createSqliteAnnotationsStore(db, gate),
    presets: createSqlitePresetsStore(db, gate),
    notifications: createSqliteNotificationConfigStore(db, gate),
    agents: createSqliteAgentsStore(db, gate),
    docs: createSqliteDocsStore(db, gate),
    engineMemory: createSqliteEngineMemoryStore(db, gate),
    maintenance: createSqliteMaintenanceStore(db, gate),
    cluster: createSqliteClusterStore(db, gate),
    changes: createSqliteChangeFeedStore(db, gate),
    lockouts: createSqliteLockoutStore(db, gate),
    health: sqliteHealth(db),
    // Through the gate: a long write in progress finishes (commits) before the database closes.
    close: async () => {
      await eventLog.close();
      await gate.run(() => {
        if (db.open) {
          db.pragma('wal_checkpoint(TRUNCATE)');
          db.close();
        }
      });
    },
  };
}
