// `npm run build:server` (part of `npm run build`, which `npm install` runs through `prepare`):
// the server's sources compiled to JavaScript with source maps (tsconfig.build.json), so that
// `npm start` runs `node dist/main.js` with no TypeScript loader. Files under src/ that are not
// TypeScript (the SQL migrations, read at run time next to the module that reads them) are
// copied to the same relative places. `--out-dir <dir>` builds elsewhere (the release test).
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
/** Not part of the release: the store contract tests and their PostgreSQL helper. */
const EXCLUDED_DIRS = [join(SRC, 'storage', 'contract')];

/** Every file under `dir` (absolute paths), skipping the excluded folders. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!EXCLUDED_DIRS.includes(path)) out.push(...filesUnder(path));
    } else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** The run-time files of src/ that tsc does not emit: everything but TypeScript. */
export function assetFiles(): string[] {
  return filesUnder(SRC).filter((f) => !f.endsWith('.ts')).map((f) => relative(SRC, f));
}

export function buildServer(outDir: string): void {
  const out = resolve(outDir);
  // The output is emptied first: a source file deleted since the last build (a migration above
  // all) must not live on in dist/. Never a folder that holds the sources.
  if (ROOT.startsWith(out + sep) || out + sep === ROOT || out === SRC || out.startsWith(SRC + sep)) {
    throw new Error(`refusing to build into ${out}: it holds the sources`);
  }
  rmSync(out, { recursive: true, force: true });
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const run = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', out], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`tsc failed (exit ${run.status ?? run.signal})`);
  const assets = assetFiles();
  for (const file of assets) {
    mkdirSync(dirname(join(out, file)), { recursive: true });
    copyFileSync(join(SRC, file), join(out, file));
  }
  // The `bin` entry (its shebang line is in src/cli.ts): executable, as `./dist/cli.js` too.
  chmodSync(join(out, 'cli.js'), 0o755);
  console.log(`server built in ${relative(process.cwd(), out) || '.'} (${assets.length} files copied beside the JavaScript)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { 'out-dir': { type: 'string' } } });
  try {
    buildServer(values['out-dir'] ?? join(ROOT, 'dist'));
  } catch (e) {
    console.error(`build-server: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
