// The loader alone: file formats, messages naming file and path, one message per place,
// duplicates across files, and the bounds (file size, non-files, other extensions).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { AppError } from '../../errors.js';
import { ErrorList, MAX_FILE_BYTES, loadDirectory, pathOf } from './load.js';

const root = mkdtempSync(join(tmpdir(), 'vigil-provisioning-unit-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
function dirWith(files: Record<string, string>): string {
  const dir = join(root, String(++n));
  mkdirSync(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
function load(files: Record<string, string>) {
  const errors = new ErrorList();
  const desired = loadDirectory(dirWith(files), errors);
  return { desired, errors: errors.messages };
}

test('pathOf turns a JSON pointer into the path an operator reads', () => {
  assert.equal(pathOf('/objects/2/properties/ip'), 'objects[2].properties.ip');
  assert.equal(pathOf(''), '');
  assert.equal(pathOf('/objects/0/checks/a~1b'), 'objects[0].checks.a/b');
  assert.equal(pathOf('/objects/0/properties/'), 'objects[0].properties.""');
});

test('YAML and JSON files are merged in name order, each item knowing where it was written', () => {
  const { desired, errors } = load({
    'b.json': JSON.stringify({ objects: [{ discovery_id: 'y', name: 'Y' }] }),
    'a.yaml': 'objects:\n  - { discovery_id: x, name: X }\nclasses:\n  - { name: box }\n',
    'notes.txt': 'not read',
    'empty.yml': '# nothing yet\n',
  });
  assert.deepEqual(errors, []);
  assert.deepEqual(desired.files, ['a.yaml', 'b.json', 'empty.yml']);
  assert.deepEqual(desired.objects.map((o) => [o.spec.discovery_id, o.where]), [['x', 'a.yaml: objects[0]'], ['y', 'b.json: objects[0]']]);
  assert.equal(desired.classes[0]!.spec.name, 'box');
});

test('errors name the file and the path, once per place', () => {
  const { errors } = load({
    'site.yaml': 'objects:\n  - { discovery_id: x, name: X, properties: { ip: { a: 1 } }, colour: red }\n',
    'users.yaml': 'users:\n  - { login: u, passwordEnv: P, permissions: [fly] }\n',
    'bad.yaml': 'objects: [\n',
    'bad.json': '{"objects": [}',
    'top.yaml': 'object: []\n',
  });
  assert.deepEqual(errors.filter((e) => e.startsWith('site.yaml')), [
    'site.yaml: objects[0].colour: unknown key',
    'site.yaml: objects[0].properties.ip: expected text, a number, true or false, or {value, type_id}',
  ]);
  assert.deepEqual(errors.filter((e) => e.startsWith('users.yaml')), ['users.yaml: users[0].permissions[0]: unknown right']);
  assert.ok(errors.some((e) => e.startsWith('bad.yaml: not valid YAML: ')), errors.join('\n'));
  assert.ok(errors.some((e) => e.startsWith('bad.json: not valid JSON: ')), errors.join('\n'));
  assert.ok(errors.includes('top.yaml: object: unknown key'), errors.join('\n'));
});

test('values the routes refuse are refused here: a colour not #RRGGBB, a login with a colon or a space, an empty property name', () => {
  const { errors } = load({
    'a.yaml': [
      'levels:\n  - { name: L, color: "#12345" }',
      'objects:\n  - { discovery_id: x, name: X, properties: { "": 1 }, checks: { "": { type: ping } } }',
      'users:\n  - { login: "a:b", passwordEnv: P }\n  - { login: "a b", passwordEnv: P }\n  - { login: ok, passwordEnv: P, email: "" }',
    ].join('\n'),
  });
  assert.deepEqual(errors, [
    'a.yaml: levels[0].color: must match pattern "^#[0-9A-Fa-f]{6}$"',
    'a.yaml: objects[0].properties."": must not have fewer than 1 characters',
    'a.yaml: objects[0].checks."": must not have fewer than 1 characters',
    'a.yaml: users[0].login: must match pattern "^[^\\s:]+$"',
    'a.yaml: users[1].login: must match pattern "^[^\\s:]+$"',
  ]);
});

test('a discovery_id, class, level or login given twice names both places', () => {
  const { errors } = load({
    'a.yaml': 'objects:\n  - { discovery_id: x, name: X }\nusers:\n  - { login: u, passwordEnv: P }\n',
    'b.yaml': 'objects:\n  - { discovery_id: x, name: X2 }\nusers:\n  - { login: u, passwordEnv: Q }\n',
  });
  assert.deepEqual(errors, [
    'b.yaml: objects[0]: discovery_id "x" is also given at a.yaml: objects[0]',
    'b.yaml: users[0]: login "u" is also given at a.yaml: users[0]',
  ]);
});

test('a file over the size bound is refused unread; a missing directory is refused whole', () => {
  const { errors } = load({ 'big.yaml': `# ${'x'.repeat(MAX_FILE_BYTES)}\n` });
  assert.match(errors[0]!, /^big\.yaml: \d+ bytes, at most/);
  assert.throws(() => loadDirectory(join(root, 'absent'), new ErrorList()), (e) => e instanceof AppError && /cannot read the provisioning directory/.test(e.message));
});

test('the error list throws one 400 holding every message, and nothing when empty', () => {
  const list = new ErrorList();
  list.throwIfAny();
  list.add('a.yaml: objects[0].name: x');
  list.add('b.yaml: users[0].login: y');
  assert.throws(() => list.throwIfAny(), (e) => e instanceof AppError && e.code === 'BadRequest' && e.message === 'provisioning refused, nothing applied:\na.yaml: objects[0].name: x\nb.yaml: users[0].login: y');
});
