// The notifications family assembled: channels and policies (config-service), the sender, the
// grouper, the follow-ups and the engine that follows the bus. Follow-ups stored before a
// restart are read by `load`; their timer runs from `start`, once the whole server started.
import type { Logger } from 'pino';
import type { ChangePublisher } from '../../core/change-publisher.js';
import type { Config } from '../../config.js';
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import type { NotificationConfigStore } from '../../storage/notification-types.js';
import type { TriggerRunsStore } from '../../storage/trigger-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { EventBus } from '../live/event-bus.js';
import { createChannelSender } from './channel-sender.js';
import { createNotificationConfig } from './config-service.js';
import { createNotificationEngine } from './engine.js';
import { createFollowUps } from './follow-ups.js';
import { createGrouper } from './grouper.js';

export interface NotificationsDeps {
  store: NotificationConfigStore;
  runs: TriggerRunsStore;
  memory?: EngineMemoryStore;
  bus: EventBus;
  catalog: Catalog;
  /** The active incidents, their level and whether cleared (incidents service), read at load. */
  activeIncidents?: () => Iterable<{ id: string; level: number; cleared: boolean }>;
  levels: { has(id: string): boolean; name(id: number): string; priorityOf(id: number): number; guardDeletion?(guard: (id: string) => string | undefined): void };
  clock: () => number;
  logger: Logger;
  triggers: Config['triggers'];
  settings: Config['notifications'];
  /** Tells the other nodes of a cluster that channels or policies changed. */
  feed?: ChangePublisher;
}

export interface TestOutcome {
  ok: boolean;
  attempts: number;
  httpStatus?: number;
  error?: string;
}

export async function createNotificationsService(deps: NotificationsDeps) {
  const { catalog, clock, logger } = deps;
  const config = await createNotificationConfig({
    store: deps.store,
    clock,
    known: { tag: (id) => catalog.tag(id) !== undefined, object: (id) => catalog.hasObject(id), level: (id) => deps.levels.has(id) },
    feed: deps.feed,
  });
  const sender = createChannelSender({ runs: deps.runs, clock, logger, triggers: deps.triggers, telegramApiUrl: deps.settings.telegramApiUrl });
  const grouper = createGrouper((out) => {
    for (const id of out.channels) {
      const channel = config.channel(id);
      // A channel deleted since the notice was taken: the policy no longer names it either.
      if (channel) sender.dispatch(channel, out.message, { policyId: out.policyId });
    }
  });
  const followUps = createFollowUps({
    memory: deps.memory,
    clock,
    logger,
    policy: config.policy,
    onDue(due) {
      const { followUp: f, policy } = due;
      if (due.kind === 'repeat') grouper.add({ policy, kind: 'repeat', facts: f.facts, channels: policy.channels, group: f.group });
      else grouper.add({ policy, kind: 'escalation', step: due.step, facts: f.facts, channels: policy.escalation[due.step - 1]!.channels, group: f.group });
    },
  });
  const engine = createNotificationEngine({ bus: deps.bus, catalog, config, grouper, followUps, levelName: deps.levels.name, priorityOf: deps.levels.priorityOf, clock, logger });
  catalog.onDeleted((ids) => followUps.forgetEntities(ids));
  // A level a policy routes by is not deleted from under it.
  deps.levels.guardDeletion?.((id) => {
    const p = config.listPolicies().find((x) => (x.match.levels ?? []).some((l) => String(l) === id));
    return p && `notification policy ${p.id} (${p.name}) routes by it`;
  });
  let stopped = false;

  return {
    config,

    /** Reads the follow-ups stored before a restart. */
    async load(): Promise<void> {
      if (deps.activeIncidents) engine.seedActive(deps.activeIncidents());
      engine.seed(await followUps.load((id) => catalog.entity(id) !== undefined));
    },

    /** Runs the follow-ups' timer (repeats and escalations due while down go out now). */
    start: () => followUps.start(),

    /** Sends a test message through the channel now; recorded like every send. */
    async test(id: string): Promise<TestOutcome> {
      const channel = config.channelOr404(id);
      const outcome = await sender.sendNow(channel, { kind: 'test', incidents: [], count: 0 });
      return {
        ok: outcome.ok, attempts: outcome.attempts,
        ...(outcome.httpStatus !== null ? { httpStatus: outcome.httpStatus } : {}),
        ...(outcome.error !== null ? { error: outcome.error } : {}),
      };
    },

    /** Follow-ups kept and groups waiting out their window (tests, diagnostics). */
    counts: () => ({ followUps: followUps.size, openGroups: grouper.size }),

    idle: () => sender.idle(),

    /** Stops following the bus; open groups are sent at once, then the sends drain. */
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      engine.stop();
      await followUps.stop();
      grouper.flushAll();
      await sender.stop();
    },
  };
}

export type NotificationsService = Awaited<ReturnType<typeof createNotificationsService>>;
