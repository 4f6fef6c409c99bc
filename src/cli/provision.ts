// `vigil provision --dry-run | apply`: asks the running server to re-read its provisioning
// directory (POST /node/api/provisioning/apply) and prints the plan. The server does the work:
// it holds the catalog in memory, so a second process writing its database behind its back
// would be overwritten or go unseen.
import { serverClientSettings } from '../config.js';
import { loadCliConfig, type CliCommand, type CliIo } from './command.js';

const USAGE = `npm run vigil -- provision --dry-run | apply
  Shows what the running server would change to match its provisioning directory
  (provisioning.dir, PROVISIONING_DIR), or applies it. The server is VIGIL_URL (default
  http://127.0.0.1:PORT); credentials: VIGIL_TOKEN (an API token) or VIGIL_USER and
  VIGIL_PASSWORD (HTTP Basic), of a user with the right manage-configuration.`;

/** A server that does not answer within this long is reported, not waited for. */
const TIMEOUT_MS = 120_000;

interface Answer {
  files: string[];
  dir: string;
  applied: boolean;
  changes: Array<{ summary: string }>;
}

function authorization(): string | undefined {
  const c = serverClientSettings();
  if (c.token) return `Bearer ${c.token}`;
  if (c.user && c.password !== undefined) return 'Basic ' + Buffer.from(`${c.user}:${c.password}`).toString('base64');
  return undefined;
}

function print(answer: Answer, dryRun: boolean, { out }: CliIo): void {
  out(`provisioning directory ${answer.dir} (${answer.files.length} files: ${answer.files.join(', ') || 'none'})`);
  if (answer.changes.length === 0) {
    out('nothing to change: the server already matches the files');
    return;
  }
  for (const c of answer.changes) out(`  ${c.summary}`);
  out(dryRun ? `${answer.changes.length} changes would be made (dry run: nothing changed; run \`provision apply\` to make them)` : `${answer.changes.length} changes applied`);
}

export const provisionCommand: CliCommand = {
  usage: USAGE,
  async run(rest, io) {
    const mode = rest.length === 1 ? rest[0] : undefined;
    if (mode !== '--dry-run' && mode !== 'apply' && mode !== '--apply') {
      io.err(`usage: ${USAGE}`);
      return 2;
    }
    const dryRun = mode === '--dry-run';
    let base = serverClientSettings().url;
    if (!base) {
      const config = loadCliConfig(io.err);
      if (!config) return 2;
      base = `http://127.0.0.1:${config.port}`;
    }
    const auth = authorization();
    if (!auth) {
      io.err('vigil: set VIGIL_TOKEN, or VIGIL_USER and VIGIL_PASSWORD, to sign in to the server');
      return 2;
    }
    const url = `${base.replace(/\/+$/, '')}/node/api/provisioning/apply`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ dryRun }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (e) {
      io.err(`vigil: cannot reach the server at ${base}: ${(e as Error).message}`);
      return 1;
    }
    const body = (await res.json().catch(() => undefined)) as (Answer & { message?: string }) | undefined;
    if (!res.ok || !body) {
      io.err(`vigil: the server refused (${res.status}): ${body?.message ?? res.statusText}`);
      return 1;
    }
    print(body, dryRun, io);
    return 0;
  },
};
