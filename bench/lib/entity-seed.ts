// The data set of bench/entities-scale.ts: its shape (see that file's header), a seeded
// random generator so every run with the same SEED gets the same data, and the seeding itself,
// written straight through the catalog store in batches.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Catalog } from '../../src/modules/catalog/catalog.js';
import type { CatalogWrite } from '../../src/storage/catalog-types.js';
import { openSqliteStorage, SQLITE_FILE } from '../../src/storage/sqlite/open-sqlite.js';
import type { Storage } from '../../src/storage/types.js';

export const envInt = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, not ${raw}`);
  return n;
};

export const GROUPS = 10;
export const OBJECTS = envInt('OBJECTS', 100_000); // the 10 groups included, the root not
export const LINKS = envInt('LINKS', 100_000);
export const SAMPLES = Math.max(1, envInt('SAMPLES', 200));
export const WARMUP = envInt('WARMUP', 20);
export const BULK_RUNS = Math.max(1, envInt('BULK_RUNS', 5));
export const SEED = envInt('SEED', 42);
const BATCH = 10_000;
export const GOAL_P99_MS = 50;
export const GOAL_RSS_MB = 512;
if (OBJECTS < GROUPS + 20) throw new Error(`OBJECTS must be at least ${GROUPS + 20}`);

export const LEAVES = OBJECTS - GROUPS;
export const BIG_CHILDREN = Math.min(10_000, Math.floor(OBJECTS / 10));
export const BIG_ID = '2';
const FIRST_LEAF_ID = 2 + GROUPS; // root 1, groups 2..11
export const PASSWORD = 'bench-password';
export const AUTH = 'Basic ' + Buffer.from(`admin:${PASSWORD}`).toString('base64');
export const root = new URL('../..', import.meta.url).pathname;

// mulberry32: the same data set on every run with the same SEED.
let seed = SEED >>> 0;
const random = (): number => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
export const randomInt = (n: number): number => Math.floor(random() * n); // 0 ≤ r < n

export const leafId = (k: number): string => String(FIRST_LEAF_ID + k);
/** Group index (0 = big) of leaf k's first parent. */
const groupOf = (k: number): number => (k < BIG_CHILDREN ? 0 : 1 + ((k - BIG_CHILDREN) % (GROUPS - 1)));
/** Group index of leaf k's second parent, if it has one. */
const secondGroupOf = (k: number): number | undefined => (k >= BIG_CHILDREN && k % 20 === 0 ? 1 + (groupOf(k) % (GROUPS - 1)) : undefined);
const hostName = (k: number): string => `host-${String(k).padStart(5, '0')}.dc${groupOf(k)}.example.net`;
export const ipOf = (k: number): string => `10.${groupOf(k)}.${(k >> 8) & 255}.${k & 255}`;
const ROLES = ['web', 'db', 'cache', 'queue', 'lb'];


export interface Seeded {
  ms: number;
  writes: number;
  batches: number;
  props: number;
  multiParent: number;
  linksInBig: number;
  dbBytes: number;
}

/** Seeds the data set through `storage`'s catalog (any backend); every call writes the same data. */
export async function seedStorage(storage: Storage): Promise<Seeded> {
  const start = performance.now();
  seed = SEED >>> 0;
  const s = await seedCatalog(storage);
  s.ms = performance.now() - start;
  return s;
}

async function seedCatalog(storage: Storage): Promise<Seeded> {
  const now = Date.now();
  let writes: CatalogWrite[] = [];
  let total = 0;
  let batches = 0;
  const flush = async (force = false) => {
    if (writes.length === 0 || (!force && writes.length < BATCH)) return;
    await storage.catalog.apply(writes);
    total += writes.length;
    batches++;
    writes = [];
  };
  let propId = 0;
  const prop = (entity: string, name: string, value: string): CatalogWrite => ({
    op: 'putProp', row: { id: String(++propId), entity_id: entity, name, value, type_id: 3, created: now, updated: now },
  });
  const object = (id: string, name: string, classId: string, parents: string[]): CatalogWrite => ({
    op: 'putObject',
    row: { id, name, class_id: classId, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: parents, tags: [], created: now, updated: now },
  });
  const members: string[][] = Array.from({ length: GROUPS }, () => []);
  for (let g = 0; g < GROUPS; g++) writes.push(object(String(2 + g), g === 0 ? 'big' : `dc${g}`, '1', ['1']));
  let multiParent = 0;
  for (let k = 0; k < LEAVES; k++) {
    const id = leafId(k);
    const g = groupOf(k);
    const g2 = secondGroupOf(k);
    const parents = [String(2 + g)];
    members[g]!.push(id);
    if (g2 !== undefined) {
      parents.push(String(2 + g2));
      members[g2]!.push(id);
      multiParent++;
    }
    writes.push(object(id, hostName(k), '2', parents), prop(id, 'ip', ipOf(k)), prop(id, 'role', ROLES[k % ROLES.length]!));
    await flush();
  }
  // Links: a random object, and a random other child of its first parent.
  let nextId = FIRST_LEAF_ID + LEAVES;
  let linksInBig = 0;
  for (let j = 0; j < LINKS; j++) {
    const k = randomInt(LEAVES);
    const g = groupOf(k);
    const group = members[g]!;
    const source = leafId(k);
    let target = source;
    while (target === source) target = group[randomInt(group.length)]!;
    if (g === 0) linksInBig++;
    writes.push({
      op: 'putLink',
      row: { id: String(nextId++), name: `link-${j}`, source, target, class_id: null, state_id: 1, owner_id: '1', client_data: '', tags: [], operations: [], created: now, updated: now },
    });
    await flush();
  }
  await flush(true);
  return { ms: 0, writes: total, batches, props: propId, multiParent, linksInBig, dbBytes: 0 };
}

export async function seedAndMeasure(dir: string): Promise<Seeded> {
  const storage = openSqliteStorage(dir);
  let s: Seeded;
  try {
    s = await seedStorage(storage);
  } finally {
    await storage.close();
  }
  s.dbBytes = statSync(join(dir, SQLITE_FILE)).size;
  return s;
}

/** The part of start-up the catalog costs, timed in this process: read the store, build the catalog. */
export async function timeCatalogLoad(dir: string): Promise<{ storeMs: number; totalMs: number }> {
  const storage = openSqliteStorage(dir);
  try {
    return await timeCatalogLoadOf(storage);
  } finally {
    await storage.close();
  }
}

/** timeCatalogLoad on an open storage of any backend. */
export async function timeCatalogLoadOf(storage: Storage): Promise<{ storeMs: number; totalMs: number }> {
  let t0 = performance.now();
  await storage.catalog.load();
  const storeMs = performance.now() - t0;
  t0 = performance.now();
  await Catalog.load(storage.catalog); // reads the store again, then builds
  return { storeMs, totalMs: performance.now() - t0 };
}
