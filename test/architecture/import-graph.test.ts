// The shape of the program, read from its imports: every import points down the layers and
// no file reaches itself through its imports. A new upward arrow or cycle fails here, naming
// the files, so the house stays one-way as it grows.
//
// Layers, lowest first:
//   core/ and errors.ts   pure logic and the one error type
//   storage/              store interfaces and one folder per dialect
//   probes/               built-in checks (what a check does, not when or where it runs)
//   modules/<family>/     services (the read model and access live in modules/catalog/)
//   intake/               listeners and the measurement pipeline
//   http/                 Fastify infrastructure under the routes
//   route files           modules/**/routes.ts and *-routes.ts
//   agent/                the remote agent program
//   app.ts, services.ts, listeners.ts, main.ts   assembly
// config.ts is plain data read once at start and may be imported from anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Relative imports and re-exports of a file, resolved to files under src/. */
function importsOf(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((i) => i.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => {
      const path = normalize(join(dirname(file), spec)).replace(/\.js$/, '.ts');
      if (existsSync(path)) return path;
      const index = join(path.replace(/\.ts$/, ''), 'index.ts');
      return existsSync(index) ? index : path;
    });
}

const isRouteFile = (path: string) => /^modules\/.*(^|\/|-)routes\.ts$/.test(path);

/** The layer of a file (path relative to src/); undefined for files any layer may import. */
export function layerOf(path: string): number | undefined {
  if (path === 'config.ts') return undefined;
  if (path === 'errors.ts' || path.startsWith('core/')) return 0;
  if (path.startsWith('storage/')) return 1;
  if (isRouteFile(path)) return 6;
  if (path.startsWith('probes/')) return 2;
  if (path.startsWith('modules/')) return 3;
  if (path.startsWith('intake/')) return 4;
  if (path.startsWith('http/')) return 5;
  if (path.startsWith('agent/')) return 7;
  return 8; // app.ts, services.ts, listeners.ts, main.ts
}

const files = sourceFiles(SRC);
const graph = new Map(files.map((f) => [relative(SRC, f), importsOf(f).map((d) => relative(SRC, d))]));

test('every import points down the layers', () => {
  const upward: string[] = [];
  for (const [from, targets] of graph) {
    const mine = layerOf(from);
    for (const to of targets) {
      const theirs = layerOf(to);
      if (mine !== undefined && theirs !== undefined && theirs > mine) upward.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(upward, [], `imports pointing up a layer:\n${upward.join('\n')}`);
});

test('no file imports itself through other files', () => {
  // Tarjan's strongly connected components: any component of more than one file is a cycle.
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => c.join(' <-> ')).join('\n')}`);
});

test('the layer rules know a route file from a service', () => {
  assert.equal(layerOf('modules/users/routes.ts'), 6);
  assert.equal(layerOf('modules/engine/state-routes.ts'), 6);
  assert.equal(layerOf('modules/users/service.ts'), 3);
  assert.equal(layerOf('http/errors.ts'), 5);
  assert.equal(layerOf('errors.ts'), 0);
});
