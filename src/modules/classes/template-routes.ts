// Class templates (modules/classes/templates-service.ts): a class's state conditions, incident
// conditions and properties, which every entity of the class follows where it has none of its
// own. The documents have the shape and validation of the entities' ones.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { ClassSettingKind } from '../../storage/catalog-types.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import { IdParams, PropertyInput } from '../entities/schemas.js';
import { settingsDocumentSchema } from '../entities/settings-schemas.js';

const tags = ['classes'];
const OVERRIDE = 'Every entity of the class without a document of its own follows this one (its own, even an empty one, wins; DELETE of its own falls back). '
  + 'A change applies to them at once.';

export const ClassPropertySchema = Type.Object({
  id: Type.String({ description: 'from the properties\' id space: never the id of an entity\'s own property' }),
  class_id: Type.String(),
  name: Type.String(),
  value: Type.String(),
  type_id: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
});

const ClassPropItem = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 32, description: 'the property to change (as read); without it, the property of that name' })),
  ...PropertyInput.properties,
}, { additionalProperties: true, description: 'other fields of a record read and sent back (class_id, created, updated) are ignored' });
const PropParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }), propId: Type.String({ minLength: 1, maxLength: 32 }) });

const SETTINGS: Array<{ path: string; kind: ClassSettingKind; summary: string }> = [
  { path: 'state-conditions', kind: 'stateConditions', summary: 'state conditions: ordered [{condition, state, description}], first match wins' },
  { path: 'incident-conditions', kind: 'incidentConditions', summary: 'incident conditions: [{id, condition, clearCondition, text, state (incident level)}]' },
];

export function classTemplateRoutes(api: Api, s: CatalogServices): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));

  for (const setting of SETTINGS) {
    api.get(`/classes/:id/${setting.path}`, {
      schema: { tags, summary: `The class's ${setting.summary}`, description: OVERRIDE, params: IdParams, response: { 200: settingsDocumentSchema(setting.kind) } },
    }, async (req) => s.templates.getSetting(req.params.id, setting.kind));

    api.put(`/classes/:id/${setting.path}`, {
      schema: {
        tags,
        summary: `Replace the class's ${setting.summary} (right manage-classes)`,
        description: `Validated as the entities' document (a bad clause answers 400 naming it). ${OVERRIDE}`,
        params: IdParams,
        body: Type.Array(Type.Unknown(), { maxItems: 1000 }),
        response: { 200: settingsDocumentSchema(setting.kind) },
      },
      config: { right: 'manage-classes' },
    }, async (req) => s.templates.putSetting(actor(req), req.params.id, setting.kind, req.body));

    api.delete(`/classes/:id/${setting.path}`, {
      schema: { tags, summary: `Remove the class's ${setting.path} (right manage-classes)`, params: IdParams, response: { 204: Type.Null() } },
      config: { right: 'manage-classes' },
    }, async (req, reply) => {
      await s.templates.deleteSetting(actor(req), req.params.id, setting.kind);
      return reply.code(204).send(null);
    });
  }

  const PROPS = 'Inherited by every entity of the class that has no property of the same name (its own wins). Check secrets show as ******** without manage-service-properties.';
  api.get('/classes/:id/props', {
    schema: { tags, summary: 'The class\'s properties', description: PROPS, params: IdParams, response: { 200: Type.Array(ClassPropertySchema) } },
  }, async (req) => s.templates.listProps(actor(req), req.params.id));

  api.put('/classes/:id/props', {
    schema: {
      tags,
      summary: 'Replace the class\'s properties (right manage-classes)',
      description: `Ones left out are deleted, new names created, changed ones changed; service properties (type_id 8) written also need manage-service-properties, `
        + `and one sent back as shown (********) keeps the stored secret. Values and types as for entity properties. ${PROPS}`,
      params: IdParams,
      body: Type.Array(ClassPropItem, { maxItems: 1000 }),
      response: { 200: Type.Array(ClassPropertySchema) },
    },
    config: { right: 'manage-classes' },
  }, async (req) => s.templates.replaceProps(actor(req), req.params.id, req.body));

  api.post('/classes/:id/props', {
    schema: { tags, summary: 'Add a property to the class (right manage-classes; name unique per class: 409)', params: IdParams, body: PropertyInput, response: { 201: ClassPropertySchema } },
    config: { right: 'manage-classes' },
  }, async (req, reply) => reply.code(201).send(await s.templates.createProp(actor(req), req.params.id, req.body)));

  api.patch('/classes/:id/props/:propId', {
    schema: { tags, summary: 'Change a property of the class (right manage-classes)', params: PropParams, body: Type.Partial(PropertyInput), response: { 200: ClassPropertySchema } },
    config: { right: 'manage-classes' },
  }, async (req) => s.templates.updateProp(actor(req), req.params.id, req.params.propId, req.body));

  api.delete('/classes/:id/props/:propId', {
    schema: { tags, summary: 'Delete a property of the class (right manage-classes)', params: PropParams, response: { 204: Type.Null() } },
    config: { right: 'manage-classes' },
  }, async (req, reply) => {
    await s.templates.deleteProp(actor(req), req.params.id, req.params.propId);
    return reply.code(204).send(null);
  });
}
