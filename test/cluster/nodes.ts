// Nodes of a test cluster: server processes on loopback ports sharing one PostgreSQL database,
// each with a data directory of its own (removed when the test file ends).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { ADMIN, type TestServer } from '../helpers/server.js';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.js';

export interface ClusterNode {
  id: string;
  /** Its data directory (the node id is kept there when NODE_ID is not given). */
  dir: string;
  process: ServerProcess;
  /** For the helpers of test/helpers/server.ts (call, ...). */
  server: TestServer;
}

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Starts node `id` on a new data directory, or on `dir` (a restart of the node that had it). */
export async function startNode(id: string, databaseUrl: string, env: Record<string, string> = {}, dir?: string): Promise<ClusterNode> {
  if (!dir) {
    dir = mkdtempSync(join(tmpdir(), `vigil-cluster-${id}-`));
    dirs.push(dir);
  }
  const p = await startServerProcess(dir, { DATABASE_URL: databaseUrl, NODE_ID: id, ADMIN_PASSWORD: ADMIN.password, ...env });
  return { id, dir, process: p, server: { url: p.url, api: p.api } as TestServer };
}

/**
 * How long a change made on one node may take to hold on another before a test fails. The
 * issue's goal is 1 s, and the tests print each time they measure (121-565 ms over recent runs here). The bound
 * is 3 s because CI runs three nodes, the test runner and PostgreSQL on two cores, where a
 * stall of a second or more is ordinary. Broken replication never arrives, so it still fails.
 */
export const SPREAD_BOUND_MS = 3_000;

/** Polls `ok` every 100 ms; fails naming `what` when it does not hold within `ms`. */
export async function until(what: string, ms: number, ok: () => Promise<boolean> | boolean): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}
