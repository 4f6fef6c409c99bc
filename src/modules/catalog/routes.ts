// Every route of the catalog family, registered together.
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { bulkRoutes } from '../bulk/routes.js';
import { classRoutes } from '../classes/routes.js';
import { classTemplateRoutes } from '../classes/template-routes.js';
import { entityDetailRoutes, AuditQuery, AuditRecordSchema } from '../entities/entity-detail-routes.js';
import { linkRoutes } from '../entities/link-routes.js';
import { objectRoutes } from '../entities/object-routes.js';
import { stateRoutes } from '../states/routes.js';
import { tagRoutes } from '../tags/routes.js';
import type { CatalogServices } from './catalog-services.js';

export function catalogRoutes(api: Api, s: CatalogServices): void {
  objectRoutes(api, s);
  linkRoutes(api, s);
  entityDetailRoutes(api, s);
  tagRoutes(api, s);
  classRoutes(api, s);
  classTemplateRoutes(api, s);
  stateRoutes(api, s);
  bulkRoutes(api, s);

  api.get('/users/:id/audit-log', {
    schema: {
      tags: ['users'],
      summary: 'Configuration changes made by a user (newest first)',
      description: 'Right manage-users (or your own). Secrets show as ******** without manage-service-properties; with objectPermissions, records about entities you cannot see are left out.',
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      querystring: AuditQuery,
      response: { 200: Type.Array(AuditRecordSchema) },
    },
    config: { right: 'manage-users', allowSelf: true },
  }, async (req) => {
    const q = req.query;
    return s.audit.forUser(s.access.actorOf(principalOf(req)), req.params.id, { from: q.from, to: q.to, limit: q.limit ?? 100, skip: q.skip ?? 0 });
  });
}
