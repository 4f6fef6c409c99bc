// A node's id: NODE_ID (config cluster.nodeId) when set, else one made at the first start and
// kept in DATA_DIR, so that a node restarted (or killed and started again) is the same member,
// not a new one beside its own ghost.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

export const NODE_ID_FILE = 'node-id';

const VALID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function resolveNodeId(configured: string, dataDir: string): string {
  if (configured) return configured;
  const file = join(dataDir, NODE_ID_FILE);
  try {
    const kept = readFileSync(file, 'utf8').trim();
    if (VALID.test(kept)) return kept;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  // The host's name first, for an operator reading GET /cluster; random bytes make it unique
  // among several nodes on one host.
  const host = hostname().replace(/[^A-Za-z0-9._-]/g, '').slice(0, 40) || 'node';
  const id = `${/^[A-Za-z0-9]/.test(host) ? host : `n${host}`}-${randomBytes(4).toString('hex')}`;
  writeFileSync(file, id + '\n', { mode: 0o600 });
  return id;
}
