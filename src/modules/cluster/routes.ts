import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { conflict, notFound } from '../../errors.js';
import type { Membership } from './membership.js';

const Member = Type.Object({
  id: Type.String(),
  address: Type.String({ description: "The node's HTTP host:port" }),
  role: Type.Union([Type.Literal('leader'), Type.Literal('follower')], { description: 'leader: the live node holding the engine\'s lease' }),
  heartbeat: Type.Number({ description: 'Its latest heartbeat, ms since the epoch (database clock)' }),
  live: Type.Boolean({ description: 'Heard from within three heartbeats; a node stopped on purpose leaves the list' }),
  version: Type.String(),
  load: Type.Number({ description: 'Share of one core its process used between its last two heartbeats' }),
  memory: Type.Number({ description: 'Resident memory, bytes' }),
  startedAt: Type.Number({ description: 'When this run of the node started, ms since the epoch' }),
});

const View = Type.Object({
  nodes: Type.Array(Member),
  leader: Type.Union([Type.Object({ id: Type.String(), epoch: Type.Number() }), Type.Null()]),
  self: Type.String({ description: 'The node that answered' }),
  now: Type.Number({ description: "The database's clock, ms" }),
});

export function clusterRoutes(app: Api, { membership }: { membership: Membership }): void {
  app.get('/cluster', {
    schema: {
      tags: ['operations'],
      summary: 'The nodes sharing this database, their heartbeats and which one leads the engine',
      response: { 200: View },
    },
    config: { right: 'manage-configuration' },
  }, () => membership.view());

  app.delete('/cluster/nodes/:id', {
    schema: {
      tags: ['operations'],
      summary: 'Forgets a dead node (one killed or lost, never to return); a live node is refused with 409',
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      response: { 204: Type.Null() },
    },
    config: { right: 'manage-configuration' },
  }, async (req, reply) => {
    const node = (await membership.view()).nodes.find((n) => n.id === req.params.id);
    if (!node) throw notFound(`cluster node ${req.params.id}`);
    if (node.live) throw conflict(`cluster node ${node.id} is live: stop it first (a stopped node leaves by itself)`);
    await membership.forget(node.id);
    return reply.code(204).send(null);
  });
}
