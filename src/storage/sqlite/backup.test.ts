// createBackup's temporary file: made inside its private staging folder, never at a name
// another local user could predict and pre-plant (a symlink there would otherwise be followed
// by a backup run as root into a shared folder), and the backup file ends 0600 whatever the
// umask. The backup under load and the restore are tested in test/backup-restore.test.ts.
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import Database from 'better-sqlite3';
import { readBackupArchive } from './backup-archive.js';
import { createBackup } from './backup.js';
import { SQLITE_FILE } from './open-sqlite.js';

const work = mkdtempSync(join(tmpdir(), 'vigil-backup-unit-'));
const dataDir = join(work, 'data');
const VICTIM_TEXT = 'belongs to someone else\n';
let umask: number;

before(() => {
  // A permissive umask: the backup file must still end 0600.
  umask = process.umask(0o022);
  mkdirSync(dataDir, { mode: 0o700 });
  const db = new Database(join(dataDir, SQLITE_FILE));
  db.exec('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY); INSERT INTO schema_migrations VALUES (1), (2); CREATE TABLE t (v TEXT); INSERT INTO t VALUES (\'x\');');
  db.close();
});
after(() => {
  process.umask(umask);
  rmSync(work, { recursive: true, force: true });
});

/** A shared folder with a file the backup must not touch. */
function sharedFolder(name: string): { dir: string; victim: string } {
  const dir = join(work, name);
  mkdirSync(dir, { mode: 0o777 });
  const victim = join(work, `${name}-victim`);
  writeFileSync(victim, VICTIM_TEXT, { mode: 0o644 });
  return { dir, victim };
}

function assertUntouched(victim: string): void {
  assert.equal(readFileSync(victim, 'utf8'), VICTIM_TEXT, 'the file behind the planted link was not written');
  assert.equal(statSync(victim).mode & 0o777, 0o644, 'the file behind the planted link was not chmodded');
}

async function assertPrivateBackup(file: string): Promise<void> {
  const st = lstatSync(file);
  assert.ok(st.isFile(), 'the backup is a regular file, not a link');
  assert.equal(st.mode & 0o777, 0o600, 'the backup file is 0600');
  const manifest = await readBackupArchive(file);
  assert.deepEqual(manifest.files.map((f) => f.name), [SQLITE_FILE]);
}

test('a symlink planted at a predictable temporary name is not followed; the backup ends 0600', async () => {
  const { dir, victim } = sharedFolder('shared');
  const file = join(dir, 'vigil.tgz');
  // The name the temporary file had before (`.<file>.<pid>.partial` beside the target).
  const planted = join(dir, `.vigil.tgz.${process.pid}.partial`);
  symlinkSync(victim, planted);

  const result = await createBackup({ dataDir, file, vigilVersion: '0.0.0-test' });

  assertUntouched(victim);
  assert.equal(readlinkSync(planted), victim, 'the planted link is left as it was');
  await assertPrivateBackup(file);
  assert.equal(result.bytes, statSync(file).size);
  assert.deepEqual(readdirSync(dir).sort(), [`.vigil.tgz.${process.pid}.partial`, 'vigil.tgz'], 'no staging folder or temporary file is left');
});

test('--replace over a symlink at the target replaces the link, never writes through it', async () => {
  const { dir, victim } = sharedFolder('replace');
  const file = join(dir, 'vigil.tgz');
  symlinkSync(victim, file);

  await createBackup({ dataDir, file, vigilVersion: '0.0.0-test', replace: true });

  assertUntouched(victim);
  await assertPrivateBackup(file);
  assert.deepEqual(readdirSync(dir), ['vigil.tgz']);
});
