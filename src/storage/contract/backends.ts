// The storage backends the store contract runs against. Each contract file loops over this
// list: SQLite in a temporary directory, and PostgreSQL with a throwaway database per open on
// the tests' own server (postgres-cluster.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import { openSqliteStorage } from '../sqlite/open-sqlite.js';
import { openPostgresStorage } from '../postgres/open-postgres.js';
import { DEFAULT_PG_SETTINGS } from '../postgres/pg-db.js';
import type { Storage } from '../types.js';
import { createTestDatabase } from './postgres-cluster.js';

export interface OpenedBackend {
  storage: Storage;
  /** PostgreSQL: the database's URL (a peer opens its own pool on it). */
  url?: string;
  /** Closes the storage and removes everything it stored. */
  close(): Promise<void>;
}

export interface Backend {
  name: string;
  /** A fresh, empty (migrated and seeded) storage of its own. */
  open(): Promise<OpenedBackend>;
  /**
   * A second node's handle on the storage `of` opened (its close leaves the data in place).
   * Required where the storage's capabilities say `sharedByNodes`.
   */
  openPeer?(of: OpenedBackend): Promise<OpenedBackend>;
}

export const backends: Backend[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'vigil-contract-'));
      const storage = openSqliteStorage(dir);
      return {
        storage,
        close: async () => {
          await storage.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: 'postgres',
    async open() {
      const database = await createTestDatabase();
      const storage = await openPostgresStorage({ url: database.url, ...DEFAULT_PG_SETTINGS });
      return {
        storage,
        url: database.url,
        close: async () => {
          await storage.close();
          await database.drop();
        },
      };
    },
    async openPeer(of) {
      if (!of.url) throw new Error('not a PostgreSQL storage');
      const storage = await openPostgresStorage({ url: of.url, ...DEFAULT_PG_SETTINGS });
      return { storage, url: of.url, close: () => storage.close() };
    },
  },
];

/**
 * Declares `cases` once per backend, in a `describe` named after it. The cases share one
 * storage per backend (opened before the first case, closed after the last), so each case
 * makes the rows it reads; `backend` lets a case that needs an empty storage open its own.
 */
export function forEachBackend(title: string, cases: (storage: () => Storage, backend: Backend) => void): void {
  for (const backend of backends) {
    describe(`${title} on ${backend.name}`, () => {
      let opened: OpenedBackend | undefined;
      before(async () => {
        opened = await backend.open();
      });
      after(() => opened?.close());
      cases(() => {
        if (!opened) throw new Error('the storage is not open yet');
        return opened.storage;
      }, backend);
    });
  }
}

/** Opens a storage of its own for one case and always closes it. */
export async function withFreshStorage<T>(backend: Backend, run: (storage: Storage) => Promise<T>): Promise<T> {
  const opened = await backend.open();
  try {
    return await run(opened.storage);
  } finally {
    await opened.close();
  }
}
