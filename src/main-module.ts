// Whether a module is the program node was started with (main.ts and cli.ts run themselves then,
// and are only imported otherwise). argv[1] is the path as typed, the module's URL the real
// file: through a symlink (a release linked as `current`, npm's bin link) the two differ until
// resolved, and `node dist/main` (no extension, which node resolves) names no file at all.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function isMainModule(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (!argv1) return false;
  const self = fileURLToPath(moduleUrl);
  for (const candidate of [argv1, `${argv1}.js`, `${argv1}.ts`]) {
    try {
      if (realpathSync(candidate) === self) return true;
    } catch {
      // No such file: the next spelling.
    }
  }
  return false;
}
