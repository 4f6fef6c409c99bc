// Notification channels and policies: checked, stored, and held in memory for the engine (the
// lists are short, and the engine reads them for every incident of a storm). Reads show a
// channel's secrets masked to readers without manage-service-properties; a PATCH sending the
// mask back keeps the stored value (channel-secrets.ts).
//
// The lists are loaded at start and kept up to date by this node's writes. TODO(issue 20): with
// several nodes on one PostgreSQL, a write on another node is seen here only after a restart.
import { Value } from 'typebox/value';
import { badRequest, conflict, notFound } from '../../errors.js';
import { readsSecrets } from '../../core/secrets/mask.js';
import type { NotificationConfigRow, NotificationConfigStore } from '../../storage/notification-types.js';
import { serialQueue } from '../../core/serial-queue.js';
import { publishing, type ChangePublisher } from '../../core/change-publisher.js';
import { maskChannelSettings, restoreChannelSecrets } from './channel-secrets.js';
import { CHANNEL_LIMITS, CHANNEL_SETTINGS, CHANNEL_TYPES, type Channel, type ChannelType, type Templates } from './channel-types.js';
import { TEMPLATE_FIELD_SET } from './message.js';
import { localTime } from './policy-match.js';
import { DEFAULT_GROUP_WINDOW_MS, POLICY_LIMITS, type Match, type Policy, type Step } from './policy-types.js';
import { unknownPlaceholders } from './template.js';

export interface ConfigDeps {
  store: NotificationConfigStore;
  clock: () => number;
  /** What policies may name. */
  known: { tag(id: string): boolean; object(id: string): boolean; level(id: string): boolean };
  /** Tells the other nodes of a cluster that channels or policies changed. */
  feed?: ChangePublisher;
}

/** Change feed topic: notification channels or policies changed (other nodes re-read them). */
export const NOTIFICATION_CONFIG_CHANGED = 'notification-config';

export interface ChannelInput {
  name: string;
  type: ChannelType;
  settings: Record<string, unknown>;
  templates?: Templates;
}
export type ChannelPatch = Partial<Omit<ChannelInput, 'type'>>;

export interface PolicyInput {
  name: string;
  enabled?: boolean;
  match?: Match;
  channels: string[];
  groupWindowMs?: number;
  groupBy?: 'parent' | 'policy';
  repeatMinutes?: number | null;
  escalation?: Step[];
  notifyOnClear?: boolean;
}
export type PolicyPatch = Partial<PolicyInput>;


const toChannel = (r: NotificationConfigRow): Channel => ({
  id: r.id, name: r.name, type: r.type as ChannelType, settings: (r.data.settings ?? {}) as Record<string, unknown>,
  templates: (r.data.templates ?? {}) as Templates, created: r.created, updated: r.updated,
});
const toPolicy = (r: NotificationConfigRow): Policy => ({ ...(r.data as unknown as Omit<Policy, 'id' | 'name' | 'created' | 'updated'>), id: r.id, name: r.name, created: r.created, updated: r.updated });

export async function createNotificationConfig({ store, clock, known, feed }: ConfigDeps) {
  const channels = new Map<string, Channel>();
  const policies = new Map<string, Policy>();
  const read = async () => {
    const [c, p] = [await store.list('channel'), await store.list('policy')];
    channels.clear();
    policies.clear();
    for (const r of c) channels.set(r.id, toChannel(r));
    for (const r of p) policies.set(r.id, toPolicy(r));
  };
  await read();
  // One write at a time: a channel deleted while a policy naming it is stored cannot slip through.
  const serial = serialQueue();
  // Every write: once stored, the other nodes are told.
  const write = <A extends unknown[], R>(fn: (...args: A) => Promise<R>) => publishing(feed, NOTIFICATION_CONFIG_CHANGED, fn);

  const channelOr404 = (id: string) => {
    const c = channels.get(id);
    if (!c) throw notFound(`notification channel ${id}`);
    return c;
  };
  const policyOr404 = (id: string) => {
    const p = policies.get(id);
    if (!p) throw notFound(`notification policy ${id}`);
    return p;
  };

  function checkSettings(type: ChannelType, settings: Record<string, unknown>): void {
    const error = Value.Errors(CHANNEL_SETTINGS[type], settings)[0];
    if (error) throw badRequest(`settings${error.instancePath.replace(/\//g, '.')}: ${error.message} (a ${type} channel)`);
  }
  function checkTemplates(templates: Templates): void {
    for (const [k, t] of Object.entries(templates)) {
      const unknown = unknownPlaceholders(t ?? '', TEMPLATE_FIELD_SET);
      if (unknown.length > 0) throw badRequest(`templates.${k}: unknown field ${unknown.map((n) => `{{${n}}}`).join(', ')} (known: ${[...TEMPLATE_FIELD_SET].join(', ')})`);
    }
  }
  function checkPolicy(p: Omit<Policy, 'id' | 'created' | 'updated'>): void {
    const missing = (ids: readonly string[], where: string) => {
      for (const id of ids) if (!channels.has(id)) throw badRequest(`${where}: unknown notification channel ${id}`);
    };
    missing(p.channels, 'channels');
    p.escalation.forEach((s, i) => missing(s.channels, `escalation[${i}].channels`));
    for (const l of p.match.levels ?? []) if (!known.level(String(l))) throw badRequest(`match.levels: unknown incident level ${l}`);
    for (const t of p.match.tags ?? []) if (!known.tag(t)) throw badRequest(`match.tags: unknown tag ${t}`);
    for (const o of p.match.objects ?? []) if (!known.object(o)) throw badRequest(`match.objects: unknown object ${o}`);
    if (p.match.timeOfDay) {
      try {
        localTime(0, p.match.timeOfDay.timeZone);
      } catch {
        throw badRequest(`match.timeOfDay.timeZone: unknown time zone ${JSON.stringify(p.match.timeOfDay.timeZone)}`);
      }
    }
  }
  const channelView = (c: Channel, secrets: boolean): Channel => (secrets ? c : { ...c, settings: maskChannelSettings(c.type, c.settings) });
  const channelRow = (c: Omit<Channel, 'id' | 'created' | 'updated'>) => ({ name: c.name, type: c.type, data: { settings: c.settings, templates: c.templates } });
  const policyRow = (p: Omit<Policy, 'id' | 'created' | 'updated'>) => {
    const { name, ...data } = p;
    return { name, type: 'policy', data: data as unknown as Record<string, unknown> };
  };

  return {
    // Readers for the engine (whole records, secrets in clear).
    channel: (id: string): Channel | undefined => channels.get(id),
    activePolicies: (): Policy[] => [...policies.values()].filter((p) => p.enabled),
    policy: (id: string): Policy | undefined => policies.get(id),
    /** The channel as a reader with these rights sees it (for the test send's check). */
    channelOr404,

    listChannels: (rights: ReadonlySet<string>): Channel[] => [...channels.values()].map((c) => channelView(c, readsSecrets(rights))),
    getChannel: (rights: ReadonlySet<string>, id: string): Channel => channelView(channelOr404(id), readsSecrets(rights)),

    createChannel: write((rights: ReadonlySet<string>, input: ChannelInput) => serial(async () => {
      if (channels.size >= CHANNEL_LIMITS.channels) throw conflict(`at most ${CHANNEL_LIMITS.channels} notification channels`);
      if (!CHANNEL_TYPES.includes(input.type)) throw badRequest(`type: one of ${CHANNEL_TYPES.join(', ')}`);
      // A mask in a new channel stands for nothing stored: refused by the restore.
      const settings = restoreChannelSecrets(input.type, input.settings, undefined);
      checkSettings(input.type, settings);
      const templates = input.templates ?? {};
      checkTemplates(templates);
      const now = clock();
      const row = await store.create('channel', { ...channelRow({ name: input.name, type: input.type, settings, templates }), created: now, updated: now });
      const c = toChannel(row);
      channels.set(c.id, c);
      return channelView(c, readsSecrets(rights));
    })),

    updateChannel: write((rights: ReadonlySet<string>, id: string, patch: ChannelPatch) => serial(async () => {
      const old = channelOr404(id);
      const settings = patch.settings === undefined ? old.settings : restoreChannelSecrets(old.type, patch.settings, old.settings);
      checkSettings(old.type, settings);
      const templates = patch.templates ?? old.templates;
      checkTemplates(templates);
      const next = { ...old, name: patch.name ?? old.name, settings, templates, updated: clock() };
      const row = await store.update('channel', { id, ...channelRow(next), created: old.created, updated: next.updated });
      if (!row) throw notFound(`notification channel ${id}`);
      const c = toChannel(row);
      channels.set(id, c);
      return channelView(c, readsSecrets(rights));
    })),

    deleteChannel: write((id: string) => serial(async () => {
      channelOr404(id);
      for (const p of policies.values()) {
        if (p.channels.includes(id) || p.escalation.some((s) => s.channels.includes(id))) throw conflict(`notification channel ${id} is used by policy ${p.id} (${p.name})`);
      }
      await store.delete('channel', id);
      channels.delete(id);
    })),

    listPolicies: (): Policy[] => [...policies.values()],
    getPolicy: (id: string): Policy => policyOr404(id),

    createPolicy: write((input: PolicyInput) => serial(async () => {
      if (policies.size >= POLICY_LIMITS.policies) throw conflict(`at most ${POLICY_LIMITS.policies} notification policies`);
      const p = {
        name: input.name, enabled: input.enabled ?? true, match: input.match ?? {}, channels: input.channels,
        groupWindowMs: input.groupWindowMs ?? DEFAULT_GROUP_WINDOW_MS, groupBy: input.groupBy ?? 'parent', repeatMinutes: input.repeatMinutes ?? null,
        escalation: input.escalation ?? [], notifyOnClear: input.notifyOnClear ?? false,
      } satisfies Omit<Policy, 'id' | 'created' | 'updated'>;
      checkPolicy(p);
      const now = clock();
      const policy = toPolicy(await store.create('policy', { ...policyRow(p), created: now, updated: now }));
      policies.set(policy.id, policy);
      return policy;
    })),

    updatePolicy: write((id: string, patch: PolicyPatch) => serial(async () => {
      const old = policyOr404(id);
      const { id: _id, created, updated: _u, ...rest } = old;
      const next = { ...rest, ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)) } as Omit<Policy, 'id' | 'created' | 'updated'>;
      checkPolicy(next);
      const row = await store.update('policy', { id, ...policyRow(next), created, updated: clock() });
      if (!row) throw notFound(`notification policy ${id}`);
      const policy = toPolicy(row);
      policies.set(id, policy);
      return policy;
    })),

    deletePolicy: write((id: string) => serial(async () => {
      policyOr404(id);
      await store.delete('policy', id);
      policies.delete(id);
    })),

    /** Another node changed channels or policies: read them again. */
    reload: () => serial(read),
  };
}

export type NotificationConfig = Awaited<ReturnType<typeof createNotificationConfig>>;
