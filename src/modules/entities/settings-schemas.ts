// The settings documents of an entity as the API hands them back (GET and PUT answers of
// .../state-conditions, incident-conditions, state-triggers, stat-rules), named in the OpenAPI
// document so clients get their types. They describe the normalised documents the validators
// store (core/conditions/entity-settings.ts, core/stat-rules/stat-rules.ts); they do not
// replace them: request bodies stay `unknown[]`, so a bad clause keeps the validators' own
// 400 naming it ("stateConditions[1].state: ..."). A condition is free-form (metric names as
// keys), so its schema is loose. Declared properties are in the order the validators write
// them: the serializer writes declared ones first, and a document reads back as stored.
import { Type } from 'typebox';

// No declared properties: the answer's serializer writes declared ones first, which would
// reorder a stored condition's keys (a document must read back as written).
export const ConditionSchema = Type.Object({}, {
  additionalProperties: true,
  description: 'A condition: each key not starting with `_` is a metric name holding its tests, e.g. {"cpu.load1": {"_gt": "4"}, "_duration": 60000}. '
    + 'Operators: _eq, _neq, _gt, _gte, _lt, _lte, _ct, _nct (operand string, number or boolean), _m (RE2 pattern), _exists (boolean); '
    + '_and and _or hold lists of conditions, _duration the ms the condition must hold without a break.',
});

export const StateConditionSchema = Type.Object({
  condition: ConditionSchema,
  state: Type.Integer({ description: 'the state id the entity takes while the condition holds' }),
  description: Type.String(),
}, { additionalProperties: true, description: 'One state condition; the first that holds gives the state' });

// Every field optional in the schema, though only clearCondition may be missing: the serializer
// writes required fields first, which would move clearCondition after state.
export const IncidentConditionSchema = Type.Object({
  id: Type.Optional(Type.String({ description: 'always present: given, or issued when stored (the smallest free positive integer)' })),
  condition: Type.Optional(ConditionSchema),
  clearCondition: Type.Optional(ConditionSchema),
  text: Type.Optional(Type.String({ description: 'always present' })),
  state: Type.Optional(Type.String({ description: 'always present: the incident level id' })),
}, { additionalProperties: true, description: 'One incident condition: raises an incident of level `state` while `condition` holds (id, condition, text and state are always present)' });

const TriggerCommon = {
  states: Type.Array(Type.Integer(), { description: 'state ids that fire the trigger' }),
  duration: Type.Integer({ description: 'ms the entity must stay in one of `states` before it fires (0: at once)' }),
};

export const WebhookTriggerSchema = Type.Object({
  type: Type.Literal('webhook'),
  payload: Type.Object({
    url: Type.String(),
    method: Type.Union([Type.Literal('POST'), Type.Literal('PUT')]),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    timeoutMs: Type.Optional(Type.Integer()),
  }, { additionalProperties: true }),
  ...TriggerCommon,
}, { additionalProperties: true });

export const EmailTriggerSchema = Type.Object({
  type: Type.Literal('e-mail'),
  payload: Type.Object({
    to: Type.Union([Type.String(), Type.Array(Type.String())], { description: 'one address or a list, as written' }),
    subject: Type.Optional(Type.String()),
  }, { additionalProperties: true }),
  ...TriggerCommon,
}, { additionalProperties: true });

export const StateTriggerSchema = Type.Union([WebhookTriggerSchema, EmailTriggerSchema], {
  description: 'One state trigger: a webhook call or an e-mail when the entity enters one of `states`',
});

export const StatActionSchema = Type.Union([
  Type.Object({ type: Type.Literal('set'), metric: Type.String(), value: Type.Union([Type.String(), Type.Number()], { description: 'a formula over {{new.x}} and {{current.x}}, or a number' }) }, { additionalProperties: true }),
  Type.Object({ type: Type.Literal('extend') }, { additionalProperties: true }),
  Type.Object({ type: Type.Literal('drop') }, { additionalProperties: true }),
]);

// In the order the validator writes them (stat-rules.ts), which the serializer keeps.
export const StatRuleSchema = Type.Object({
  actions: Type.Array(StatActionSchema),
  condition: Type.Optional(ConditionSchema),
}, { additionalProperties: true, description: 'One stat rule: when its condition holds (or it has none) its actions run in order' });

/** Each settings document (as the route paths name them): the schema of one of its items. */
export const SETTINGS_ITEM_SCHEMAS = {
  stateConditions: StateConditionSchema,
  incidentConditions: IncidentConditionSchema,
  stateTriggers: StateTriggerSchema,
  statRules: StatRuleSchema,
} as const;

/** Named in the OpenAPI document's components (app.ts registers them). */
export const SETTINGS_SCHEMAS = {
  Condition: ConditionSchema,
  StateCondition: StateConditionSchema,
  IncidentCondition: IncidentConditionSchema,
  StateTrigger: StateTriggerSchema,
  StatRule: StatRuleSchema,
};

/**
 * A settings route's answer: the array of its document's items, for the OpenAPI document and
 * the serializer. Typed as `unknown[]` for the handler, which returns what the settings
 * service stored (the validators, not these schemas, are what shape it).
 */
export function settingsDocumentSchema(kind: string) {
  const item = (SETTINGS_ITEM_SCHEMAS as Record<string, (typeof SETTINGS_ITEM_SCHEMAS)[keyof typeof SETTINGS_ITEM_SCHEMAS]>)[kind];
  if (!item) throw new Error(`no schema for settings of kind ${kind}`);
  return Type.Unsafe<unknown[]>(Type.Array(item));
}
