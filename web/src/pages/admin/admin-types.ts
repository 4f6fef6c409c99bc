// Types of the administration pages, taken from the generated API schema (never hand-copied).
// The rights a user can be given come from the server (GET /web/settings: session.settings.rights).
import type { paths } from '../../api/client';
import type { Json } from '../../api/types';

export type User = Json<paths['/node/api/users/{id}']['get']['responses'][200]>;
export type UserInput = paths['/node/api/users']['post']['requestBody']['content']['application/json'];
export type UserPatch = paths['/node/api/users/{id}']['patch']['requestBody']['content']['application/json'];
export type Right = NonNullable<UserInput['permissions']>[number];
export type ObjectPermissions = NonNullable<UserInput['objectPermissions']>;
export type FoundObject = Json<paths['/node/api/objects/search']['post']['responses'][200]>[number];
export type Level = Json<paths['/node/api/incident-levels']['get']['responses'][200]>[number];
export type Tag = Json<paths['/node/api/tags']['get']['responses'][200]>[number];
export type ObjectClass = Json<paths['/node/api/classes']['get']['responses'][200]>[number];
export type State = Json<paths['/node/api/states']['get']['responses'][200]>[number];
export type StateInput = paths['/node/api/states']['post']['requestBody']['content']['application/json'];
export type Agent = Json<paths['/node/api/agents']['get']['responses'][200]>[number];

export const STATUS_ACTIVE = 2;
export const STATUS_BLOCKED = 3;

/** A colour as the API takes it. */
export const HEX_COLOR = /^#[0-9A-Fa-f]{6}$/;
export type AuditRecord = Json<paths['/node/api/users/{id}/audit-log']['get']['responses'][200]>[number];
