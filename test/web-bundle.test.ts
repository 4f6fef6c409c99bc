// The web UI's first load stays small: the JavaScript index.html loads at once (its entry
// script and what it preloads) is under 300 KB gzipped. Pages come later, each in its chunk.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { WEB_DIST } from '../src/http/web-ui.js';

test('the initial JavaScript of the web UI is under 300 KB gzipped', () => {
  const index = join(WEB_DIST, 'index.html');
  assert.ok(existsSync(index), 'web/dist is not built: npm install builds it (npm run build:web)');
  const html = readFileSync(index, 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
  assert.ok(scripts.length > 0, 'no script in index.html');
  const gz = scripts.reduce((sum, f) => sum + gzipSync(readFileSync(join(WEB_DIST, f))).length, 0);
  assert.ok(gz < 300 * 1024, `initial JavaScript is ${Math.round(gz / 1024)} KB gzipped`);
});
