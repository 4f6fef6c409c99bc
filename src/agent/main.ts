// `npm run agent -- --server URL --token T [--name N]`: a remote agent (see agent.ts).
import { parseArgs } from 'node:util';
import { runAgent } from './agent.js';
import { joinOptionValues } from './cli-args.js';

const USAGE = 'usage: npm run agent -- --server http://vigil:8080 --token <API token> [--name <agent name>] [--concurrency N]';

async function main(): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: joinOptionValues(process.argv.slice(2), ['server', 'token', 'name', 'concurrency']),
      options: {
        server: { type: 'string' },
        token: { type: 'string' },
        name: { type: 'string' },
        concurrency: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const token = values.token ?? process.env.VIGIL_AGENT_TOKEN;
  if (!values.server || !token) {
    process.stderr.write(`--server and --token (or VIGIL_AGENT_TOKEN) are required\n${USAGE}\n`);
    process.exit(2);
  }
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) {
    process.stderr.write(`--concurrency: a positive whole number\n`);
    process.exit(2);
  }
  const agent = await runAgent({ server: values.server, token, ...(values.name ? { name: values.name } : {}), ...(concurrency ? { concurrency } : {}) });
  const stop = () => {
    void agent.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  process.stderr.write(`agent failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
