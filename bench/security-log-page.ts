// Time to answer security log pages over a million records (the store and service as the
// server uses them, without HTTP), on SQLite and on PostgreSQL (a durable cluster of its own on
// this machine, started here), the same records and queries on both.
//   npm run bench:security-log [-- --records 1000000]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { createSecurityLogService } from '../src/modules/security-log/service.js';
import { createDatabase, startPostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { openPostgresStorage } from '../src/storage/postgres/open-postgres.js';
import { DEFAULT_PG_SETTINGS } from '../src/storage/postgres/pg-db.js';
import { openSqliteStorage } from '../src/storage/sqlite/open-sqlite.js';
import type { SecurityEvent, Storage } from '../src/storage/types.js';

const { values } = parseArgs({ options: { records: { type: 'string', default: '1000000' } } });
const total = Number(values.records);
const t0 = Date.now() - total * 10; // one record every 10 ms, ending now

const event = (i: number): SecurityEvent => ({
  timestamp: t0 + i * 10,
  userId: String(1 + (i % 50)),
  level: i % 1000 === 0 ? 'error' : 'info',
  severity: i % 1000 === 0 ? '3' : '6',
  eventClassId: i % 1000 === 0 ? 'Lockout' : 'LoginSuccess',
  eventDescription: 'bench',
  host: 'bench',
  message: {
    remoteAddress: `10.0.${(i >> 8) & 255}.${i & 255}`,
    login: `user${i % 50}`,
    message: 'ok',
    connection: {
      localAddress: '127.0.0.1', localHost: 'bench', localPort: 8080, remoteAddress: '10.0.0.1', remoteHost: '10.0.0.1',
      request: { request: 'GET /node/api/users/current HTTP/1.1', hostname: 'localhost', userAgent: 'bench' },
    },
  },
  extra: { source: 'basic', channel: 'http' },
});

async function measure(backend: string, storage: Storage): Promise<void> {
  let start = Date.now();
  for (let i = 0; i < total; i += 10_000) {
    await storage.securityLog.append(Array.from({ length: Math.min(10_000, total - i) }, (_, k) => event(i + k)));
  }
  console.log(`${backend}: inserted ${total} records in ${Date.now() - start} ms`);
  const log = createSecurityLogService({ store: storage.securityLog, clock: Date.now, logger: pino({ level: 'silent' }), retentionDays: 3650 });
  const time = async (title: string, q: Parameters<typeof log.query>[0]) => {
    await log.query(q); // warm
    start = performance.now();
    const rows = await log.query(q);
    console.log(`${title.padEnd(46)} ${(performance.now() - start).toFixed(1).padStart(8)} ms  (${rows.length} rows)`);
  };
  await time('newest page, limit 100', { limit: 100, skip: 0 });
  await time('page at skip 10,000', { limit: 100, skip: 10_000 });
  await time('time range in the middle, limit 100', { limit: 100, skip: 0, from: t0 + total * 5, to: t0 + total * 6 });
  await time('one user (userId), limit 100', { limit: 100, skip: 0, userId: '7' });
  await time('filter eventClassId=Lockout (1 in 1000)', { limit: 100, skip: 0, filter: '{"eventClassId":"Lockout"}' });
  await time('filter matching nothing (full scan, capped)', { limit: 100, skip: 0, filter: '{"message.login":"nobody"}' });
  await time('filter on a record field, host=nothing', { limit: 100, skip: 0, filter: '{"host":"nothing"}' });
}

console.log(`node ${process.version}; ${total} records; PostgreSQL durable (fsync on), on this machine`);
const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-seclog-'));
const sqlite = openSqliteStorage(dir);
try {
  await measure('sqlite', sqlite);
} finally {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}
const cluster = await startPostgresCluster({ durable: true });
try {
  const postgres = await openPostgresStorage({ url: await createDatabase(cluster.adminUrl, 'seclog'), ...DEFAULT_PG_SETTINGS });
  try {
    await measure('postgres', postgres);
  } finally {
    await postgres.close();
  }
} finally {
  cluster.stop();
}
