// Remote agents: registration, the check-in that is both heartbeat and check list, listing.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { createAccess } from '../catalog/access.js';
import type { AgentsService } from './service.js';

const tags = ['agents'];
const AgentSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  userId: Type.String({ description: 'the user whose token the agent signs in with' }),
  version: Type.String(),
  address: Type.String({ description: 'where its last check-in came from' }),
  created: Type.Integer(),
  lastSeen: Type.Integer({ description: 'its last check-in (ms)' }),
  status: Type.Union([Type.Literal('up'), Type.Literal('down')], { description: 'down: silent for longer than probes.agentDownAfterMs' }),
  checks: Type.Integer({ description: 'enabled checks assigned to it' }),
});
const Params = Type.Object({ id: Type.String({ maxLength: 32 }) });
const RegisterBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 128, description: 'unique; checks name their agent by it' }),
  version: Type.Optional(Type.String({ maxLength: 64 })),
}, { additionalProperties: false });
const CheckInBody = Type.Object({ version: Type.Optional(Type.String({ maxLength: 64 })) }, { additionalProperties: false });
const CheckInSchema = Type.Object({
  agent: AgentSchema,
  revision: Type.String({ description: 'changes whenever the list of checks changes' }),
  checks: Type.Array(Type.Object({
    key: Type.String(),
    entityId: Type.String(),
    entityType: Type.Integer(),
    propertyId: Type.String(),
    name: Type.String(),
    definition: Type.Record(Type.String(), Type.Unknown()),
  })),
  limits: Type.Object({ minIntervalMs: Type.Integer(), maxIntervalMs: Type.Integer() }),
  checkInMs: Type.Integer({ description: 'check in at least this often' }),
});

export function agentRoutes(api: Api, deps: { agents: AgentsService; access: ReturnType<typeof createAccess> }): void {
  const { agents } = deps;
  const actor = (req: FastifyRequest) => deps.access.actorOf(principalOf(req));

  api.get('/agents', {
    schema: {
      tags, summary: 'Remote agents with their last-seen time and status',
      description: 'All agents for users with manage-configuration; the caller\'s own agents for others.',
      response: { 200: Type.Array(AgentSchema) },
    },
  }, async (req) => agents.list(actor(req)));

  api.get('/agents/:id', {
    schema: { tags, summary: 'One remote agent', params: Params, response: { 200: AgentSchema } },
  }, async (req) => agents.get(actor(req), req.params.id));

  api.post('/agents/register', {
    schema: {
      tags,
      summary: 'Register a remote agent (npm run agent does this at start)',
      description: 'Right manage-service-properties (the checks it is given carry their secrets). The agent belongs to the caller. Registering an existing name again (same user) finds that agent (200); another user\'s name is 409.',
      body: RegisterBody,
      response: { 200: AgentSchema, 201: AgentSchema },
    },
  }, async (req, reply) => {
    const { agent, created } = await agents.register(actor(req), req.body, req.ip);
    return reply.code(created ? 201 : 200).send(agent);
  });

  api.post('/agents/:id/check-in', {
    schema: {
      tags,
      summary: 'Heartbeat: records the agent as seen and answers with the checks assigned to it',
      description: 'Checks whose definition names the agent (field agent), on entities its user may change. Results go to POST /stat. '
        + 'Only the agent\'s user (or manage-configuration) may check in. The answer carries the checks\' secrets, so the agent\'s user must be active and hold '
        + 'manage-service-properties at each check-in, and so must the caller; otherwise 403 (the agent keeps no heartbeat and goes down).',
      params: Params,
      body: Type.Optional(CheckInBody),
      response: { 200: CheckInSchema },
    },
  }, async (req) => agents.checkIn(actor(req), req.params.id, req.body ?? {}, req.ip));

  api.delete('/agents/:id', {
    schema: { tags, summary: 'Forget a remote agent', description: 'Right manage-configuration.', params: Params, response: { 204: Type.Null() } },
    config: { right: 'manage-configuration' },
  }, async (req, reply) => {
    await agents.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });
}
