// The SQL narrowing must never drop a record the full filter would keep: checked by running
// many random filters both ways over random records in a real SQLite table.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { necessaryConditions } from '../../core/filter-conditions.js';
import { compileSafeQuery } from '../../core/safe-query.js';
import { jsonConditionClauses, type JsonColumnLayout } from './json-conditions.js';

function rng(seed: number) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}

const VALUES = [0, 1, 2, 5, 'a', 'b', 'ab', true, false, null];

test('pushed-down conditions keep every record the full filter keeps, and narrow', () => {
  const rand = rng(7);
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, kind TEXT, body TEXT NOT NULL)');
  const records: Array<Record<string, unknown> & { id: number }> = Array.from({ length: 300 }, (_, id) => {
    const r: Record<string, unknown> = { kind: pick(['x', 'y', 'z']), a: pick(VALUES), n: { m: pick(VALUES) } };
    if (rand() < 0.3) r.arr = [pick(VALUES), pick(VALUES)];
    if (rand() < 0.2) delete r.a;
    return { id, ...r };
  });
  const insert = db.prepare('INSERT INTO t (id, kind, body) VALUES (?, ?, ?)');
  for (const r of records) insert.run(r.id, r.kind, JSON.stringify(r));
  const layout: JsonColumnLayout = { column: 'body', columns: { kind: 'kind' }, arraysPossible: true };

  const clause = () => {
    const field = pick(['kind', 'a', 'n.m', 'arr']);
    const v = pick(VALUES.filter((x) => x !== null));
    switch (pick(['eq', '$eq', '$in', '$gt', '$gte', '$lt', '$lte'])) {
      case 'eq': return { [field]: v };
      case '$in': return { [field]: { $in: [v, pick(VALUES.filter((x) => x !== null))] } };
      default: return { [field]: { [pick(['$eq', '$gt', '$gte', '$lt', '$lte'])]: v } };
    }
  };
  let narrowed = 0;
  for (let i = 0; i < 400; i++) {
    const filter = rand() < 0.5 ? clause() : { $and: [clause(), clause()] };
    const matches = compileSafeQuery<Record<string, unknown>>(filter);
    const expected = records.filter(matches).map((r) => r.id);
    const where: string[] = [];
    const params: unknown[] = [];
    jsonConditionClauses(layout, necessaryConditions(filter), where, params);
    const sql = `SELECT id, body FROM t ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY id`;
    const candidates = db.prepare(sql).all(...params) as Array<{ id: number; body: string }>;
    if (candidates.length < records.length) narrowed++;
    const got = candidates.map((c) => JSON.parse(c.body)).filter(matches).map((r) => r.id);
    assert.deepEqual(got, expected, `filter ${JSON.stringify(filter)}: ${sql} ${JSON.stringify(params)}`);
  }
  assert.ok(narrowed > 200, `the SQL should narrow most scans (narrowed ${narrowed} of 400)`);
  db.close();
});
