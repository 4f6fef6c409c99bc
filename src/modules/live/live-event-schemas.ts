// The events of the live stream (GET /events/stream), as the OpenAPI document names them, so
// clients (the web UI's generated types) read typed events instead of guessing. The stream is
// Server-Sent Events, which no route schema validates or serializes: these schemas describe
// what event-bus.ts publishes and stream-routes.ts writes, and a test keeps the two together.
// Loose where the data is free-form: a state reason carries details by code.
import { Type, type Static } from 'typebox';
import { IncidentSchema } from '../incidents/schemas.js';

const EntityType = Type.Union([Type.Literal(1), Type.Literal(2)], { description: '1 object, 2 link' });

export const LiveStateReasonSchema = Type.Object({
  code: Type.Integer({ description: "the engine's state reason code" }),
}, { additionalProperties: true, description: 'why the state changed; details depend on the code (a cause the caller may not see is left out)' });

export const LiveStateEventSchema = Type.Object({
  type: Type.Literal('state'),
  entityId: Type.String(),
  entityType: EntityType,
  entityName: Type.String(),
  stateId: Type.Integer(),
  previousStateId: Type.Integer(),
  reason: LiveStateReasonSchema,
  timestamp: Type.Integer({ description: 'ms' }),
}, { description: 'SSE event `state`: an entity changed state' });

export const IncidentActions = ['raised', 'repeated', 'acknowledged', 'unacknowledged', 'cleared', 'undo-clear', 'removed', 'commented', 'changed', 'suppressed', 'unsuppressed'] as const;

export const LiveIncidentEventSchema = Type.Object({
  type: Type.Literal('incident'),
  entityId: Type.String(),
  entityType: EntityType,
  action: Type.Union(IncidentActions.map((a) => Type.Literal(a))),
  incident: IncidentSchema,
  timestamp: Type.Integer({ description: 'ms' }),
}, { description: 'SSE event `incident`: an incident changed; `incident` is the record as GET /incidents/{id} shows it' });

export const LiveStatEventSchema = Type.Object({
  type: Type.Literal('stat'),
  entityId: Type.String(),
  entityType: EntityType,
  timestamp: Type.Integer({ description: 'ms' }),
  metrics: Type.Array(Type.String(), { description: 'names of the metrics the payload carried (flattened)' }),
}, { description: 'SSE event `stat`: measurements arrived for an entity' });

export const LiveResetEventSchema = Type.Object({
  missedBefore: Type.Integer({ description: 'the oldest event id the server still keeps' }),
}, { description: 'SSE event `reset`: events were missed beyond what the server keeps; reload what is shown' });

export const LiveEventSchema = Type.Union([LiveStateEventSchema, LiveIncidentEventSchema, LiveStatEventSchema], {
  description: 'The data of a live stream event (SSE `event:` state, incident or stat)',
});

/** Named in the OpenAPI document's components (app.ts registers them). */
export const LIVE_EVENT_SCHEMAS = {
  LiveEvent: LiveEventSchema,
  LiveStateEvent: LiveStateEventSchema,
  LiveIncidentEvent: LiveIncidentEventSchema,
  LiveStatEvent: LiveStatEventSchema,
  LiveResetEvent: LiveResetEventSchema,
};

export type LiveEventData = Static<typeof LiveEventSchema>;
