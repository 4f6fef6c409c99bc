// Opens the PostgreSQL storage DATABASE_URL names: a pool, the migrations checked and
// applied, and the stores assembled on it.
import type { Storage, StorageCapabilities } from '../types.js';
import { migratePg } from './migrator.js';
import { openPgDb, type PgSettings } from './pg-db.js';
import { pgHealth } from './pg-health.js';
import { createPgUsersStore } from './users-store.js';
import { createPgSessionsStore } from './sessions-store.js';
import { createPgSecurityLogStore } from './security-log-store.js';
import { createPgCatalogStore } from './catalog-store.js';
import { createPgHistoryStore } from './history-store.js';
import { createPgIncidentsStore } from './incidents-store.js';
import { createPgTriggerRunsStore } from './trigger-runs-store.js';
import { createPgEventLogStore } from './event-log-store.js';
import { createPgAnnotationsStore } from './annotations-store.js';
import { createPgPresetsStore } from './presets-store.js';
import { createPgMaintenanceStore } from './maintenance-store.js';
import { createPgClusterStore } from './cluster-store.js';
import { createPgChangeFeedStore } from './change-feed-store.js';
import { createPgLockoutStore } from './lockout-store.js';
import { createPgNotificationConfigStore } from './notification-config-store.js';
import { createPgAgentsStore } from './agents-store.js';
import { createPgDocsStore } from './docs-store.js';
import { createPgEngineMemoryStore } from './engine-memory-store.js';

/** Queries run in the database server's processes; several nodes may share the database. */
export const PG_CAPABILITIES: StorageCapabilities = Object.freeze({ blockingQueries: false, sharedByNodes: true });

export interface PgStorageOptions {
  /** Told about an idle connection that broke (the server restarted); the pool has dropped it. */
  onConnectionError?: (err: Error) => void;
}

export async function openPostgresStorage(settings: PgSettings, options: PgStorageOptions = {}): Promise<Storage> {
  const db = openPgDb(settings, options.onConnectionError);
  try {
    await migratePg(db);
  } catch (err) {
    await db.close();
    throw err;
  }
  const eventLog = createPgEventLogStore(db) as ReturnType<typeof createPgEventLogStore> & { close?(): Promise<void> };
  const health = pgHealth(db);
  return {
    capabilities: PG_CAPABILITIES,
    users: createPgUsersStore(db),
    sessions: createPgSessionsStore(db),
    securityLog: createPgSecurityLogStore(db),
    catalog: createPgCatalogStore(db),
    history: createPgHistoryStore(db),
    incidents: createPgIncidentsStore(db),
    triggerRuns: createPgTriggerRunsStore(db),
    eventLog,
    annotations: createPgAnnotationsStore(db),
    presets: createPgPresetsStore(db),
    notifications: createPgNotificationConfigStore(db),
    agents: createPgAgentsStore(db),
    docs: createPgDocsStore(db),
    engineMemory: createPgEngineMemoryStore(db),
    maintenance: createPgMaintenanceStore(db),
    cluster: createPgClusterStore(db),
    changes: createPgChangeFeedStore(db),
    lockouts: createPgLockoutStore(db),
    health,
    close: async () => {
      await health.close();
      await eventLog.close?.();
      await db.close();
    },
  };
}
