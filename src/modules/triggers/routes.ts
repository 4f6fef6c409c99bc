// TODO(issue 4): trigger run routes.
import type { Api } from '../../http/api-types.js';
import type { createAccess } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import type { TriggersService } from './service.js';

export function triggersRoutes(_api: Api, _deps: { triggers: TriggersService; catalog: Catalog; access: ReturnType<typeof createAccess> }): void {}
