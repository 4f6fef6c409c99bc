// POST /provisioning/apply: re-reads the provisioning directory of this server and answers the
// plan, applying it unless dryRun. What is applied is what the files on the server's disk say,
// but the answer shows all of it (objects' ids, names, properties, hand-made objects a removal
// would take, users' emails and rights): an administrator's operation, so the caller must see
// every object and hold both manage-configuration and manage-users (service.authorize).
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { ProvisioningService } from './service.js';

const Result = Type.Object({
  dir: Type.String(),
  files: Type.Array(Type.String()),
  dryRun: Type.Boolean(),
  applied: Type.Boolean({ description: 'false for a dry run, and when nothing was to change' }),
  changes: Type.Array(Type.Object({
    action: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]),
    kind: Type.Union([Type.Literal('class'), Type.Literal('level'), Type.Literal('object'), Type.Literal('user')]),
    key: Type.String({ description: 'class or level name, object discovery_id, user login' }),
    details: Type.Array(Type.String()),
    summary: Type.String({ description: 'the change in one readable line' }),
  })),
});

export function provisioningRoutes(api: Api, { provisioning }: { provisioning: ProvisioningService }): void {
  api.post('/provisioning/apply', {
    schema: {
      tags: ['operations'],
      summary: 'Apply the provisioning directory (configuration as code), or only show what would change',
      description: 'For administrators: the rights manage-configuration and manage-users and access to every object (403 otherwise: the plan names objects and users). '
        + 'Every file is checked before anything is applied: a bad file answers 400 naming the file and the path in it, and nothing changes. '
        + 'Objects made by provisioning (owner_id "provisioning") that the files no longer describe are deleted; objects made by hand never are.',
      body: Type.Object({ dryRun: Type.Boolean() }, { additionalProperties: false }),
      response: { 200: Result },
    },
    config: { right: 'manage-configuration' },
  }, async (req) => {
    provisioning.authorize(principalOf(req));
    return provisioning.run(req.body.dryRun);
  });
}
