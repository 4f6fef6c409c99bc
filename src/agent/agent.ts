// A remote agent: registers with the server, checks in periodically for the checks assigned to
// it (each check-in is also its heartbeat), runs them with the same scheduler and probes as
// the server, and sends the results through POST /stat.
import { hostname } from 'node:os';
import { CheckDefinitionError, parseCheckDefinition } from '../core/probes/check-definition.js';
import { createScheduler, type ScheduledCheck } from '../probes/scheduler.js';
import { createResultSender } from './result-sender.js';
import { ServerError, createServerClient, type CheckInAnswer } from './server-client.js';

export interface AgentOptions {
  server: string;
  token: string;
  name?: string;
  concurrency?: number;
  pingConcurrency?: number;
  log?: (message: string) => void;
}

export const AGENT_VERSION = 'vigil-agent/0.1.0';

export async function runAgent(options: AgentOptions) {
  const log = options.log ?? ((m: string) => process.stderr.write(`${new Date().toISOString()} ${m}\n`));
  const name = options.name ?? hostname();
  const client = createServerClient(options.server, options.token);
  const sender = createResultSender({ client, log });
  const scheduler = createScheduler({
    concurrency: options.concurrency ?? 256,
    pingConcurrency: options.pingConcurrency ?? 32,
    onResult: (item, run) => sender.add({ entityId: item.entityId, timestamp: run.timestamp, data: run.values }),
  });
  let agent = await register();
  log(`registered as agent "${agent.name}" (id ${agent.id}) with ${options.server}`);

  /** Waits for the server (it may start after the agent); a refusal (bad token, taken name) is final. */
  async function register(): Promise<{ id: string; name: string }> {
    for (let wait = 1000; ; wait = Math.min(wait * 2, 30_000)) {
      try {
        return await client.register(name, AGENT_VERSION);
      } catch (err) {
        if (err instanceof ServerError && err.status < 500 && err.status !== 429) throw err;
        log(`registering failed (${(err as Error).message}); trying again in ${wait / 1000} s`);
        await new Promise((r) => setTimeout(r, wait));
      }
    }
  }

  let revision = '';
  let entities = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  function apply(answer: CheckInAnswer): void {
    if (answer.revision === revision) return;
    revision = answer.revision;
    const byEntity = new Map<string, ScheduledCheck[]>();
    for (const c of answer.checks) {
      try {
        const check = parseCheckDefinition(c.definition, answer.limits, `check "${c.name}" of entity ${c.entityId}`);
        let list = byEntity.get(c.entityId);
        if (!list) byEntity.set(c.entityId, (list = []));
        list.push({ key: c.key, entityId: c.entityId, check });
      } catch (err) {
        if (!(err instanceof CheckDefinitionError)) throw err;
        log(`skipping a check the server sent: ${err.message}`);
      }
    }
    for (const id of entities) if (!byEntity.has(id)) scheduler.set(id, []);
    for (const [id, list] of byEntity) scheduler.set(id, list);
    entities = new Set(byEntity.keys());
    log(`running ${answer.checks.length} checks on ${entities.size} entities (revision ${revision})`);
  }

  async function checkIn(): Promise<void> {
    let next = 10_000;
    try {
      const answer = await client.checkIn(agent.id, AGENT_VERSION);
      apply(answer);
      next = answer.checkInMs;
    } catch (err) {
      // Keep running the last known checks; their results wait in the sender.
      log(`check-in failed: ${(err as Error).message}`);
      next = 5000;
      if (err instanceof ServerError && err.status === 404) {
        // Deleted on the server (or a new database): register again under the same name.
        try {
          agent = await register();
          log(`registered again as agent "${agent.name}" (id ${agent.id})`);
          next = 0;
        } catch (again) {
          log(`registering again failed: ${(again as Error).message}`);
        }
      }
    }
    if (!stopped) timer = setTimeout(() => void checkIn(), next);
  }
  await checkIn();

  return {
    get id() {
      return agent.id;
    },
    counters: () => ({ ...scheduler.counters(), ...sender.counters() }),
    async stop(): Promise<void> {
      stopped = true;
      clearTimeout(timer);
      await scheduler.stop();
      sender.stop();
      await sender.flush().catch(() => undefined);
    },
  };
}
