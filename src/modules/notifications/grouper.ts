// Groups notices into messages: notices of one kind for one policy whose entities share a
// group (their first parent, or the policy as a whole) within the policy's window go out as
// one message with a count and the first names. The first notice of a group opens it and arms
// its timer; the rest only count (constant work each), so a storm of 10,000 incidents under
// one parent costs 10,000 additions and one message per policy and channel.
import type { NotificationKind } from '../../storage/trigger-types.js';
import { MAX_LISTED, type IncidentFacts, type Message } from './message.js';
import type { Policy } from './policy-types.js';

export interface Notice {
  policy: Policy;
  kind: NotificationKind;
  facts: IncidentFacts;
  /** The channels to tell (the policy's, or an escalation step's). */
  channels: readonly string[];
  group: { id: string; name: string } | undefined;
  step?: number;
}

/** A message ready to send, to these channels. */
export interface Outgoing {
  message: Message;
  channels: readonly string[];
  policyId: string;
}

interface Open {
  notice: Notice;
  incidents: IncidentFacts[];
  count: number;
  cancel: () => void;
}

export function createGrouper(send: (out: Outgoing) => void) {
  const open = new Map<string, Open>();

  function flush(key: string): void {
    const g = open.get(key);
    if (!g) return;
    open.delete(key);
    g.cancel();
    const { policy, kind, group, step, channels } = g.notice;
    const message: Message = {
      kind, policy: { id: policy.id, name: policy.name }, incidents: g.incidents, count: g.count,
      ...(group && g.count > 1 ? { group } : {}), ...(step !== undefined ? { step } : {}),
    };
    send({ message, channels, policyId: policy.id });
  }

  return {
    add(n: Notice): void {
      const key = [n.kind, n.step ?? '', n.policy.id, n.group?.id ?? '', n.channels.join(',')].join('\u0000');
      const g = open.get(key);
      if (g) {
        g.count++;
        if (g.incidents.length < MAX_LISTED) g.incidents.push(n.facts);
        return;
      }
      const entry: Open = { notice: n, incidents: [n.facts], count: 1, cancel: () => undefined };
      open.set(key, entry);
      const timer = setTimeout(() => flush(key), n.policy.groupWindowMs);
      timer.unref?.();
      entry.cancel = () => clearTimeout(timer);
    },
    /** Groups waiting out their window. */
    get size(): number {
      return open.size;
    },
    /** Sends every open group now (on stop). */
    flushAll(): void {
      for (const key of [...open.keys()]) flush(key);
    },
  };
}

export type Grouper = ReturnType<typeof createGrouper>;
