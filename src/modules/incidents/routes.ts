// TODO(issue 4): incident routes.
import type { Api } from '../../http/api-types.js';
import type { createAccess } from '../catalog/access.js';
import type { IncidentLevelsService } from './levels-service.js';
import type { IncidentsService } from './service.js';

export function incidentsRoutes(_api: Api, _deps: { incidents: IncidentsService; levels: IncidentLevelsService; access: ReturnType<typeof createAccess> }): void {}
