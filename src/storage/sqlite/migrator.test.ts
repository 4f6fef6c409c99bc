import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { migrate, MigrationError, readMigrations } from './migrator.js';

let root: string;
let dir: string;
let dbFile: string;
const open: Database.Database[] = [];

function openDb(): Database.Database {
  const db = new Database(dbFile);
  open.push(db);
  return db;
}

function writeMigration(file: string, sql: string): void {
  writeFileSync(join(dir, file), sql);
}

const tables = (db: Database.Database) =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
const history = (db: Database.Database) =>
  db.prepare('SELECT version, name FROM schema_migrations ORDER BY version').all() as Array<{ version: number; name: string }>;

function assertMigrationError(fn: () => unknown, part: RegExp): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof MigrationError, `not a MigrationError: ${String(err)}`);
    assert.match(err.message, part);
    return true;
  });
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'vigil-migrate-'));
  dir = join(root, 'migrations');
  mkdirSync(dir);
  dbFile = join(root, 'test.db');
  writeMigration('0001-first.sql', 'CREATE TABLE a (id INTEGER PRIMARY KEY);');
  writeMigration('0002-second.sql', 'CREATE TABLE b (id INTEGER PRIMARY KEY);\nINSERT INTO a (id) VALUES (1);');
});
afterEach(() => {
  while (open.length) open.pop()!.close();
  rmSync(root, { recursive: true, force: true });
});

describe('readMigrations', () => {
  it('reads NNNN-name.sql files in order, with a checksum, ignoring other files', () => {
    writeMigration('README.md', '# not a migration');
    writeMigration('0003-third.sql.bak', 'nonsense');
    writeMigration('notes.sql', 'nonsense');
    const ms = readMigrations(dir);
    assert.deepEqual(ms.map((m) => [m.version, m.name]), [[1, '0001-first'], [2, '0002-second']]);
    assert.match(ms[0]!.checksum, /^[0-9a-f]{64}$/);
    assert.notEqual(ms[0]!.checksum, ms[1]!.checksum);
  });

  it('accepts the directory with or without a trailing slash', () => {
    assert.deepEqual(readMigrations(dir + '/'), readMigrations(dir));
  });

  it('refuses numbering that is out of sequence', () => {
    writeMigration('0004-gap.sql', 'SELECT 1;');
    assertMigrationError(() => readMigrations(dir), /0004-gap.*out of sequence/);
  });

  it('refuses two migrations with the same number', () => {
    writeMigration('0002-again.sql', 'SELECT 1;');
    assertMigrationError(() => readMigrations(dir), /out of sequence/);
  });

  it('refuses numbering that does not start at 1', () => {
    rmSync(join(dir, '0001-first.sql'));
    assertMigrationError(() => readMigrations(dir), /0002-second/);
  });
});

describe('migrate', () => {
  it('applies pending migrations in order, once each', () => {
    const db = openDb();
    assert.deepEqual(migrate(db, readMigrations(dir)), { applied: [1, 2] });
    assert.deepEqual(tables(db), ['a', 'b', 'schema_migrations']);
    assert.deepEqual(history(db), [{ version: 1, name: '0001-first' }, { version: 2, name: '0002-second' }]);
    assert.deepEqual(db.prepare('SELECT id FROM a').all(), [{ id: 1 }], 'the second ran after the first');

    assert.deepEqual(migrate(db, readMigrations(dir)), { applied: [] }, 'a second run applies nothing');
    assert.deepEqual(db.prepare('SELECT id FROM a').all(), [{ id: 1 }]);
  });

  it('a later start applies only the new migrations', () => {
    migrate(openDb(), readMigrations(dir));
    open.pop()!.close();
    writeMigration('0003-third.sql', 'ALTER TABLE b ADD COLUMN note TEXT;');
    const db = openDb();
    assert.deepEqual(migrate(db, readMigrations(dir)), { applied: [3] });
    assert.equal(history(db).length, 3);
    db.prepare("INSERT INTO b (id, note) VALUES (1, 'x')").run();
  });

  it('refuses a database where an applied migration file was changed', () => {
    migrate(openDb(), readMigrations(dir));
    writeMigration('0001-first.sql', 'CREATE TABLE a (id INTEGER PRIMARY KEY, extra TEXT);');
    assertMigrationError(() => migrate(openDb(), readMigrations(dir)), /0001-first.*changed/);
  });

  it('refuses a database with a migration the files do not have (a newer database)', () => {
    writeMigration('0003-third.sql', 'CREATE TABLE c (id INTEGER);');
    migrate(openDb(), readMigrations(dir));
    rmSync(join(dir, '0003-third.sql'));
    const db = openDb();
    assertMigrationError(() => migrate(db, readMigrations(dir)), /0003-third.*unknown/);
    assert.equal(history(db).length, 3, 'nothing was touched');
  });

  it('a failing run is rolled back whole: the database stays at the version it had', () => {
    const db = openDb();
    migrate(db, readMigrations(dir));
    writeMigration('0003-broken.sql', 'CREATE TABLE c (id INTEGER);\nINSERT INTO nowhere VALUES (1);');
    writeMigration('0004-fine.sql', 'CREATE TABLE d (id INTEGER);');
    assert.throws(() => migrate(db, readMigrations(dir)), /nowhere/);
    assert.deepEqual(history(db).map((r) => r.version), [1, 2]);
    assert.equal(tables(db).includes('d'), false, 'nothing of the failed run stays');
    rmSync(join(dir, '0004-fine.sql'));
    assert.equal(tables(db).includes('c'), false, 'the half-run migration left nothing');

    writeMigration('0003-broken.sql', 'CREATE TABLE c (id INTEGER);');
    assert.deepEqual(migrate(db, readMigrations(dir)), { applied: [3] });
  });
});

describe('the real migrations', () => {
  it('apply on a fresh file, and a second run applies nothing', () => {
    const db = openDb();
    db.pragma('foreign_keys = ON');
    const all = readMigrations();
    assert.ok(all.length >= 1);
    const { applied } = migrate(db);
    assert.deepEqual(applied, all.map((m) => m.version));
    for (const t of ['users', 'sessions', 'security_log', 'schema_migrations']) assert.ok(tables(db).includes(t), t);
    assert.deepEqual(migrate(db), { applied: [] });
    open.pop()!.close();
    assert.deepEqual(migrate(openDb()), { applied: [] }, 'also after reopening the file');
  });

  it('give a schema the stores can use: unique logins, sessions cascade with their user', () => {
    const db = openDb();
    db.pragma('foreign_keys = ON');
    migrate(db);
    const insert = db.prepare("INSERT INTO users (login, password_hash, created, updated) VALUES (?, 'h', 0, 0) RETURNING id");
    const { id } = insert.get('u1') as { id: number };
    assert.throws(() => insert.get('u1'), /UNIQUE/);
    db.prepare("INSERT INTO sessions (id_hash, user_id, csrf_token, created, last_seen) VALUES ('s', ?, 'c', 0, 0)").run(id);
    db.prepare('DELETE FROM users WHERE id = ?').run(id);
    assert.equal((db.prepare('SELECT count(*) AS n FROM sessions').get() as { n: number }).n, 0);
  });
});

after(() => {
  while (open.length) open.pop()!.close();
});
