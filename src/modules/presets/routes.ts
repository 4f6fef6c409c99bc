// View presets: saved page layouts, each private to its creator unless shared (api-extensions.md
// "Tags, annotations, presets, bulk").
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { createAccess } from '../catalog/access.js';
import { CreatePresetBody, KEYS_DESCRIPTION, PatchPresetBody, PresetListQuery, PresetParams, PresetSchema, PRESET_LIMITS, ReplacePresetBody } from './schemas.js';
import type { PresetsService } from './service.js';

const tags = ['presets'];
const access = 'Another user\'s preset that is not shared answers 404, as if absent.';
const changes = `${access} A shared preset is changed or deleted only by its owner or a user with right manage-users (others: 403). `
  + 'Fields other than name, key, data and shared answer 400 naming the field.';

export function presetsRoutes(api: Api, deps: { presets: PresetsService; access: ReturnType<typeof createAccess> }): void {
  const { presets } = deps;
  const actor = (req: FastifyRequest) => deps.access.actorOf(principalOf(req));

  api.get('/presets', {
    schema: {
      tags, summary: 'The caller\'s presets and the shared ones, by id', description: `Filter by key. ${KEYS_DESCRIPTION}`, querystring: PresetListQuery, response: { 200: Type.Array(PresetSchema) },
    },
  }, async (req) => presets.list(actor(req), { key: req.query.key, limit: req.query.limit ?? 100, skip: req.query.skip ?? 0 }));

  api.get('/presets/:id', {
    schema: { tags, summary: 'One preset', description: access, params: PresetParams, response: { 200: PresetSchema } },
  }, async (req) => presets.get(actor(req), req.params.id));

  api.post('/presets', {
    schema: {
      tags,
      summary: 'Save a preset; the caller is its owner',
      description: `${KEYS_DESCRIPTION} At most ${PRESET_LIMITS.perUser} presets per user (409 beyond). Fields other than name, key, data and shared answer 400 naming the field.`,
      body: CreatePresetBody,
      response: { 201: PresetSchema },
    },
  }, async (req, reply) => reply.code(201).send(await presets.create(actor(req), req.body)));

  api.put('/presets/:id', {
    schema: {
      tags, summary: 'Replace a preset (shared left out is false)', description: `${changes} ${KEYS_DESCRIPTION}`, params: PresetParams, body: ReplacePresetBody, response: { 200: PresetSchema },
    },
  }, async (req) => presets.replace(actor(req), req.params.id, req.body));

  api.patch('/presets/:id', {
    schema: {
      tags, summary: 'Change some fields of a preset', description: `${changes} data is checked against the key the preset ends up with.`, params: PresetParams, body: PatchPresetBody, response: { 200: PresetSchema },
    },
  }, async (req) => presets.update(actor(req), req.params.id, req.body));

  api.delete('/presets/:id', {
    schema: { tags, summary: 'Delete a preset', description: changes, params: PresetParams, response: { 204: Type.Null() } },
  }, async (req, reply) => {
    await presets.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });
}
