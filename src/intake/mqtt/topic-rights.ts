// Who may publish what over MQTT: the one table of the rights a topic needs, and the check of
// the entity a topic names. A user without rights is read-only (api-extensions.md "Users"), so
// every publish needs one: measurements and free messages alike drive states, incidents and
// webhooks, or land in the event log. Subscribing needs none (the broker forwards only what
// the subscriber may see).
import { canChange, type EntityActor } from '../../modules/catalog/access.js';
import type { MemEntity } from '../../modules/catalog/catalog.js';
import { LINK_PUSH_RIGHTS, OBJECT_PUSH_RIGHTS } from '../../modules/history/push-rights.js';
import type { Right } from '../../modules/users/rights.js';
import type { EntityTopic } from './entity-topic.js';

interface TopicRule {
  /** What the topic carries, for the refusal's text. */
  what: string;
  matches(topic: EntityTopic | undefined): boolean;
  /** Any one of these allows the publish. */
  anyOf: readonly Right[];
}

/**
 * First match wins; the last rule takes every other topic. Measurements take the rights of the
 * HTTP stat routes (modules/history/push-rights.ts), so a device pushes the same way on both;
 * a free message is data about objects and takes the object rights.
 */
const TOPIC_RULES: readonly TopicRule[] = [
  { what: 'measurements of an object', matches: (t) => t?.isStat === true && t.entityType === 1, anyOf: OBJECT_PUSH_RIGHTS },
  { what: 'measurements of a link', matches: (t) => t?.isStat === true && t.entityType === 2, anyOf: LINK_PUSH_RIGHTS },
  { what: 'a message for the event log', matches: () => true, anyOf: OBJECT_PUSH_RIGHTS },
];

export function topicRule(topic: EntityTopic | undefined): TopicRule {
  return TOPIC_RULES.find((r) => r.matches(topic))!;
}

/**
 * Why the actor may not publish on the topic, or undefined when it may. `entity` is what the
 * topic names (undefined when it names none that exists). A topic naming an entity needs the
 * right to change it; one naming an entity that does not exist is refused the same way as one
 * the actor may not see, so that a refusal tells nothing about which ids exist.
 */
export function publishRefusal(actor: EntityActor, topic: EntityTopic | undefined, entity: MemEntity | undefined): string | undefined {
  const rule = topicRule(topic);
  if (!rule.anyOf.some((r) => actor.rights.has(r))) return `publishing ${rule.what} needs the right "${rule.anyOf.join('" or "')}"`;
  if (!topic) return undefined;
  if (!entity) return `entity ${topic.id} does not exist`;
  if (!canChange(actor, entity)) return `entity ${topic.id} is outside the user's objectPermissions (or may only be seen)`;
  return undefined;
}
