import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { isMainModule } from './main-module.js';

test('the started module is recognised by its path, a symlink to it, or its path without extension; others are not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-main-module-'));
  try {
    mkdirSync(join(dir, 'release'));
    const main = join(dir, 'release', 'main.js');
    writeFileSync(main, '');
    writeFileSync(join(dir, 'release', 'other.js'), '');
    symlinkSync(join(dir, 'release'), join(dir, 'current'));
    const url = pathToFileURL(main).href;
    assert.equal(isMainModule(url, main), true);
    assert.equal(isMainModule(url, join(dir, 'current', 'main.js')), true, 'through a linked release directory');
    assert.equal(isMainModule(url, join(dir, 'release', 'main')), true, 'without the extension, as node resolves it');
    assert.equal(isMainModule(url, join(dir, 'release', 'other.js')), false);
    assert.equal(isMainModule(url, join(dir, 'nothing-here')), false, 'a path that names nothing: false, not a throw');
    assert.equal(isMainModule(url, undefined), false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
