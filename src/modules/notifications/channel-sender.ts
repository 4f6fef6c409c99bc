// Sends a message through a channel and records the send in the trigger-runs log. HTTP calls go
// through the state triggers' sender (network policy triggers.denyNetworks, timeout, retries
// triggers.webhookRetries), e-mail through their SMTP relay, all in one bounded queue of its own
// (a storm queues messages, not sockets). A send never throws: its outcome is recorded.
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { createNetPolicy } from '../../core/net-policy.js';
import type { NewTriggerRun, TriggerRunsStore } from '../../storage/trigger-types.js';
import { createMailer, NO_RELAY, type Mailer } from '../triggers/email-sender.js';
import type { SendOutcome } from '../triggers/retry.js';
import { SendQueue } from '../triggers/send-queue.js';
import { sendHttp, webhookNetwork } from '../triggers/webhook-sender.js';
import { channelCall } from './channel-call.js';
import { channelTarget } from './channel-secrets.js';
import type { Channel } from './channel-types.js';
import type { Message } from './message.js';

export interface SenderDeps {
  runs: TriggerRunsStore;
  clock: () => number;
  logger: Logger;
  triggers: Config['triggers'];
  telegramApiUrl: string;
  limits?: { maxInFlight: number; maxWaiting: number; stopGraceMs: number };
}

/** The run's fields that say what the send was about. */
export interface RunContext {
  policyId?: string;
}

export function createChannelSender(deps: SenderDeps) {
  const { runs, clock, logger } = deps;
  const limits = deps.limits ?? { maxInFlight: 8, maxWaiting: 10_000, stopGraceMs: 5_000 };
  const retry = { retries: deps.triggers.webhookRetries, baseMs: deps.triggers.retryBaseMs };
  const network = webhookNetwork(createNetPolicy(deps.triggers, 'triggers'));
  const queue = new SendQueue(limits);
  const stopping = new AbortController();
  const cutOff = new AbortController();
  const signals = { stopping: stopping.signal, abort: cutOff.signal };
  let mailer: Mailer | undefined;
  let mailerMade = false;

  async function deliver(channel: Channel, message: Message): Promise<SendOutcome> {
    try {
      const call = channelCall(channel, message, deps.telegramApiUrl);
      if ('http' in call) return await sendHttp(call.http, retry, signals, network);
      if (!mailerMade) {
        mailerMade = true;
        mailer = createMailer(deps.triggers.smtp);
      }
      if (!mailer) return { attempts: 0, ok: false, error: NO_RELAY, httpStatus: null };
      return await mailer.send(call.mail, retry, signals);
    } catch (err) {
      logger.error({ err, channelId: channel.id }, 'notification send failed unexpectedly');
      return { attempts: 0, ok: false, error: `internal error: ${(err as Error).message}`, httpStatus: null };
    }
  }

  function runOf(channel: Channel, message: Message, context: RunContext, started: number, outcome: SendOutcome): NewTriggerRun {
    const first = message.incidents[0];
    return {
      entityId: first?.entityId ?? '0',
      entityType: first?.entityType ?? 1,
      entityName: first?.entityName ?? 'test message',
      triggerIndex: -1,
      type: channel.type,
      target: channelTarget(channel.type, channel.settings),
      stateId: first?.state ?? 0,
      previousStateId: 0,
      stateTimestamp: first?.timestamp ?? started,
      started,
      finished: clock(),
      ...outcome,
      ...(first ? { incidentId: first.id } : {}),
      ...(context.policyId ? { policyId: context.policyId } : {}),
      channelId: channel.id,
      notification: message.kind,
      incidentCount: message.count,
    };
  }

  async function record(run: NewTriggerRun): Promise<void> {
    try {
      await runs.add(run);
    } catch (err) {
      logger.error({ err, channelId: run.channelId }, 'could not record a notification send');
    }
    if (!run.ok) logger.warn({ channelId: run.channelId, type: run.type, error: run.error }, 'notification send failed');
  }

  return {
    /** Queues the send; its run is recorded when it ends (or is dropped). */
    dispatch(channel: Channel, message: Message, context: RunContext = {}): void {
      queue.push({
        run: async () => {
          const started = clock();
          await record(runOf(channel, message, context, started, await deliver(channel, message)));
        },
        dropped: async (why) => {
          await record(runOf(channel, message, context, clock(), { attempts: 0, ok: false, error: why, httpStatus: null }));
        },
      });
    },

    /** Sends now, outside the queue (a test send a user waits for); records and answers the outcome. */
    async sendNow(channel: Channel, message: Message): Promise<SendOutcome> {
      const started = clock();
      const outcome = await deliver(channel, message);
      await record(runOf(channel, message, {}, started, outcome));
      return outcome;
    },

    idle: () => queue.idle(),

    async stop(): Promise<void> {
      stopping.abort();
      const grace = setTimeout(() => cutOff.abort(), limits.stopGraceMs);
      try {
        await queue.drain('not sent: the server stopped');
      } finally {
        clearTimeout(grace);
        mailer?.close();
      }
    },
  };
}

export type ChannelSender = ReturnType<typeof createChannelSender>;
