// The web UI's API types are generated from the server's OpenAPI document; this fails while
// the committed file lags behind a route change (fix: npm run web:types).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { SCHEMA_FILE, apiTypesText } from '../scripts/web-api-types.js';

test('web/src/api/schema.d.ts is what the server\'s OpenAPI document generates', async () => {
  const fresh = await apiTypesText();
  assert.ok(readFileSync(SCHEMA_FILE, 'utf8') === fresh, 'web/src/api/schema.d.ts is stale: run `npm run web:types`');
});
