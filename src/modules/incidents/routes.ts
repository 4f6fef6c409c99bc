// Incidents, their comments and history, and incident levels. Every incident route acts only on
// incidents whose entity the caller can see (404 otherwise). Reading needs no right; every
// action on incidents (raise, acknowledge, comment, clear, ...) needs manage-incidents or a right
// to modify objects or links (users/rights.ts), as a user without rights is read-only; level
// changes need manage-configuration.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { createAccess } from '../catalog/access.js';
import { INCIDENT_ACTION_RIGHTS } from '../users/rights.js';
import type { IncidentLevelsService } from './levels-service.js';
import {
  AckBody, ActionSchema, SetLevelBody, SuppressBody, CommentBody, CommentSchema, CreateIncidentBody, HistoryQuery, IncidentListQuery, IncidentParams, IncidentSchema, LevelBody, LevelSchema,
  PagingQuery, PatchLevelBody,
} from './schemas.js';
import type { IncidentsService } from './service.js';

const tags = ['incidents'];
const access = 'Only incidents whose entity the caller can see (others answer 404, lists leave them out).';
const Empty = { 204: Type.Null() };
/** The rights every incident-changing route declares (any one of them). */
const act = { right: INCIDENT_ACTION_RIGHTS };
const ACT_RIGHTS = `Right ${INCIDENT_ACTION_RIGHTS.join(', ')} (any one).`;

export function incidentsRoutes(api: Api, deps: { incidents: IncidentsService; levels: IncidentLevelsService; access: ReturnType<typeof createAccess> }): void {
  const { incidents } = deps;
  const actor = (req: FastifyRequest) => deps.access.actorOf(principalOf(req));
  const paging = (q: { limit?: number; skip?: number }) => ({ limit: q.limit ?? 100, skip: q.skip ?? 0 });

  api.get('/incidents', {
    schema: {
      tags, summary: 'Active incidents (not yet in history), newest first', description: access, querystring: IncidentListQuery, response: { 200: Type.Array(IncidentSchema) },
    },
  }, async (req) => incidents.list(actor(req), { ...req.query, ...paging(req.query) }));

  api.get('/incidents/:id', {
    schema: { tags, summary: 'One active incident', description: access, params: IncidentParams, response: { 200: IncidentSchema } },
  }, async (req) => incidents.get(actor(req), req.params.id));

  api.post('/incidents', {
    schema: {
      tags,
      summary: 'Raise a manual incident (type 3)',
      description: `${ACT_RIGHTS} On an entity the caller can see (an unknown or hidden entity answers 400); \`state\` is an incident level id other than 3 Cleared.`,
      body: CreateIncidentBody,
      response: { 201: IncidentSchema },
    },
    config: act,
  }, async (req, reply) => reply.code(201).send(await incidents.create(actor(req), req.body)));

  api.post('/incidents/:id/acknowledge', {
    schema: {
      tags,
      summary: 'Acknowledge: adds acknowledgedBy (the caller) and acknowledgementTimestamp; state unchanged. An acknowledged incident keeps its first acknowledgement.',
      description: `${ACT_RIGHTS} Empty body, or JSON {message?, until?, sticky?}: the message is recorded and added as a comment; at \`until\` (ms, in the future, at most a year ahead) `
        + 'the acknowledgement is dropped; sticky (default true) keeps it through level changes, not sticky drops it when the engine raises a worse level (by level priority). '
        + `Answers 204 with no body. ${access}`,
      params: IncidentParams,
      body: AckBody,
      response: Empty,
    },
    config: act,
  }, async (req, reply) => {
    await incidents.acknowledge(actor(req), req.params.id, req.body);
    return reply.code(204).send(null);
  });

  api.post('/incidents/:id/level', {
    schema: {
      tags, summary: 'Change the level by hand (recorded as level-changed)', description: `${ACT_RIGHTS} Not to 3 Cleared (400: clear instead); 409 when the incident is cleared. ${access}`,
      params: IncidentParams, body: SetLevelBody, response: Empty,
    },
    config: act,
  }, async (req, reply) => {
    await incidents.setLevel(actor(req), req.params.id, req.body.state);
    return reply.code(204).send(null);
  });

  api.post('/incidents/:id/suppress', {
    schema: {
      tags,
      summary: 'Suppress until a time (suppression kind manual): it notifies nobody until then, whatever maintenance or dependencies say',
      description: `${ACT_RIGHTS} \`until\` in the future, at most a year ahead (400 otherwise); 409 when cleared. Published as 'suppressed'; at \`until\` the suppressors decide again. ${access}`,
      params: IncidentParams, body: SuppressBody, response: Empty,
    },
    config: act,
  }, async (req, reply) => {
    await incidents.suppress(actor(req), req.params.id, req.body);
    return reply.code(204).send(null);
  });

  api.post('/incidents/:id/unsuppress', {
    schema: {
      tags,
      summary: 'End a manual suppression now (the suppressors then decide again)',
      description: `${ACT_RIGHTS} Nothing to do when not suppressed; 409 when suppressed by maintenance or a dependency (that ends with its cause). ${access}`,
      params: IncidentParams, response: Empty,
    },
    config: act,
  }, async (req, reply) => {
    await incidents.unsuppress(actor(req), req.params.id);
    return reply.code(204).send(null);
  });

  const actions = [
    { path: 'unacknowledge', summary: 'Drop the acknowledgement (nothing to do when there is none)', run: incidents.unacknowledge },
    { path: 'clear', summary: 'Clear: state 3 and clearTimestamp; lastState keeps the level. The incident moves to history after the configured time.', run: incidents.clear },
    { path: 'clear-remove', summary: 'Clear and move to history at once (id and comments kept)', run: incidents.clearRemove },
    { path: 'close', summary: 'Close: clear and move to history at once, recorded as closed (the same as clear-remove)', run: incidents.clearRemove },
    { path: 'undo-clear', summary: 'Undo a clearing: state back to lastState, clearTimestamp removed (409 when not cleared)', run: incidents.undoClear },
  ] as const;
  for (const a of actions) {
    api.post(`/incidents/:id/${a.path}`, {
      schema: { tags, summary: a.summary, description: `${ACT_RIGHTS} Empty body; answers 204 with no body. ${access}`, params: IncidentParams, response: Empty },
      config: act,
    }, async (req, reply) => {
      await a.run(actor(req), req.params.id);
      return reply.code(204).send(null);
    });
  }

  api.post('/incidents/:id/comment', {
    schema: {
      tags,
      summary: 'Comment on an active incident',
      description: `${ACT_RIGHTS} Body: the text as text/plain, or JSON {"text": "..."}; not empty, at most 10000 characters. ${access}`,
      consumes: ['text/plain', 'application/json'],
      params: IncidentParams,
      body: CommentBody,
      response: { 201: CommentSchema },
    },
    config: act,
  }, async (req, reply) => reply.code(201).send(await incidents.comment(actor(req), req.params.id, req.body)));

  api.get('/incidents/:id/comments', {
    schema: { tags, summary: 'Comments of an active incident, newest first', description: access, params: IncidentParams, querystring: PagingQuery, response: { 200: Type.Array(CommentSchema) } },
  }, async (req) => incidents.comments(actor(req), req.params.id, paging(req.query)));

  api.get('/incidents/:id/actions', {
    schema: {
      tags, summary: 'What was done to an active incident, by whom and when, newest first', description: access, params: IncidentParams, querystring: PagingQuery,
      response: { 200: Type.Array(ActionSchema) },
    },
  }, async (req) => incidents.actions(actor(req), req.params.id, paging(req.query)));

  api.get('/incident-history/:id/actions', {
    schema: {
      tags, summary: 'What was done to an incident in history, by whom and when, newest first', description: access, params: IncidentParams, querystring: PagingQuery,
      response: { 200: Type.Array(ActionSchema) },
    },
  }, async (req) => incidents.historyActions(actor(req), req.params.id, paging(req.query)));

  api.get('/incident-history', {
    schema: {
      tags, summary: 'Incidents moved to history, by timestamp, newest first (inverse: oldest first)', description: access, querystring: HistoryQuery, response: { 200: Type.Array(IncidentSchema) },
    },
  }, async (req) => incidents.history(actor(req), { ...req.query, ...paging(req.query) }));

  api.get('/incident-history/:id', {
    schema: { tags, summary: 'One incident in history', description: access, params: IncidentParams, response: { 200: IncidentSchema } },
  }, async (req) => incidents.historyGet(actor(req), req.params.id));

  api.get('/incident-history/:id/comments', {
    schema: { tags, summary: 'Comments of an incident in history, newest first', description: access, params: IncidentParams, querystring: PagingQuery, response: { 200: Type.Array(CommentSchema) } },
  }, async (req) => incidents.historyComments(actor(req), req.params.id, paging(req.query)));

  levelRoutes(api, deps.levels);
}

function levelRoutes(api: Api, levels: IncidentLevelsService): void {
  const tags = ['incident-levels'];
  const right = 'manage-configuration' as const;
  api.get('/incident-levels', {
    schema: { tags, summary: 'Every incident level (built-in: 1 Alarm, 2 Warning, 3 Cleared, 4 Major)', response: { 200: Type.Array(LevelSchema) } },
  }, async () => levels.list());

  api.get('/incident-levels/:id', {
    schema: { tags, summary: 'One incident level', params: IncidentParams, response: { 200: LevelSchema } },
  }, async (req) => levels.get(req.params.id));

  api.post('/incident-levels', {
    schema: { tags, summary: 'Add an incident level (names are unique: 409)', description: 'Right manage-configuration.', body: LevelBody, response: { 201: LevelSchema } },
    config: { right },
  }, async (req, reply) => reply.code(201).send(await levels.create(req.body)));

  api.patch('/incident-levels/:id', {
    schema: { tags, summary: 'Rename, recolour or reorder (priority) an incident level', description: 'Right manage-configuration.', params: IncidentParams, body: PatchLevelBody, response: { 200: LevelSchema } },
    config: { right },
  }, async (req) => levels.update(req.params.id, req.body));

  api.delete('/incident-levels/:id', {
    schema: {
      tags,
      summary: 'Delete an incident level',
      description: 'Right manage-configuration. 409 while in use: level 3 Cleared always; a level the configuration maps a state to (incidents.stateLevels), '
        + 'one an active incident has (state or lastState), or one an incident condition raises.',
      params: IncidentParams,
      response: Empty,
    },
    config: { right },
  }, async (req, reply) => {
    await levels.remove(req.params.id);
    return reply.code(204).send(null);
  });
}
