import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { CatalogServices } from '../catalog/catalog-services.js';

const BulkBody = Type.Object({
  search: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'object search criteria (as POST /objects/search); none: every object' })),
  bulk: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
    minItems: 1,
    maxItems: 100,
    description: 'operations, one key each: modify {name, client_data, tags, parent_id}, "properties.createOrModify" {name, value, type_id}, stateConditions, stateTriggers, incidentConditions (an array is the whole document, an object a document of one)',
  }),
});
const Started = Type.Object({ bulkId: Type.String(), finished: Type.Boolean() });
const Status = Type.Object({
  bulkId: Type.String(), finished: Type.Boolean(), matched: Type.Integer(), changed: Type.Integer(), errors: Type.Array(Type.String()),
});
const tags = ['bulk'];

export function bulkRoutes(api: Api, s: CatalogServices): void {
  api.post('/bulk/objects', {
    schema: {
      tags,
      summary: 'Change every object a search matches, all or nothing',
      description: 'Rights run-bulks and manage-objects. Every operation is checked first (400 naming the bad one). Matches only objects the caller may change. Answers once finished, or after a second with finished: false while it runs on.',
      body: BulkBody,
      response: { 200: Started },
    },
    config: { right: 'run-bulks' },
  }, async (req) => s.bulk.start(s.access.actorOf(principalOf(req)), req.body));

  api.get('/bulk/:bulkId', {
    schema: { tags, summary: 'Progress and result of a bulk operation', params: Type.Object({ bulkId: Type.String({ maxLength: 64 }) }), response: { 200: Status } },
    config: { right: 'run-bulks' },
  }, async (req) => s.bulk.get(s.access.actorOf(principalOf(req)), req.params.bulkId));
}
