#!/usr/bin/env -S node --enable-source-maps
// Operator commands beside the server (`npm run vigil -- <command>`), configured as the server
// is (DATA_DIR, CONFIG_FILE, ...). Each command is a file of src/cli/ (its usage and its run);
// this file picks one by name and turns its answer into the exit code.
import type { CliCommand, CliIo } from './cli/command.js';
import { backupCommand } from './cli/backup.js';
import { copyDataCommand } from './cli/copy-data.js';
import { restoreCommand } from './cli/restore.js';
import { provisionCommand } from './cli/provision.js';
import { isMainModule } from './main-module.js';

const COMMANDS: Record<string, CliCommand> = {
  'copy-data': copyDataCommand,
  backup: backupCommand,
  restore: restoreCommand,
  provision: provisionCommand,
};

const usage = () => `usage:\n${Object.values(COMMANDS).map((c) => '  ' + c.usage.split('\n').join('\n  ')).join('\n')}`;

export async function runCli(argv: string[], out: CliIo['out'], err: CliIo['err']): Promise<number> {
  const [name, ...rest] = argv;
  const command = name === undefined ? undefined : COMMANDS[name];
  if (!command) {
    err(name ? `unknown command ${name}\n${usage()}` : usage());
    return 2;
  }
  return command.run(rest, { out, err });
}

// Run as a `bin` entry, argv[1] is the symlink (node_modules/.bin/vigil); the module's URL is the real file.
if (isMainModule(import.meta.url)) {
  runCli(process.argv.slice(2), (l) => process.stdout.write(l + '\n'), (l) => process.stderr.write(l + '\n')).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`vigil: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
