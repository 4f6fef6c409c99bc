// Shapes of the object routes, taken from the generated OpenAPI types (never copied by hand).
import type { components, paths } from '../../../api/client';
import type { Json } from '../../../api/types';

type Ok<P extends keyof paths> = paths[P] extends { get: { responses: { 200: infer R } } } ? Json<R> : never;

export type ObjectRecord = Ok<'/node/api/objects/{id}'>;
export type Tag = Ok<'/node/api/tags'>[number];
export type Property = Ok<'/node/api/objects/{id}/props'>[number];
export type Check = Ok<'/node/api/objects/{id}/checks'>[number];
export type StateChange = Ok<'/node/api/objects/{id}/state-history'>[number];
export type ManualState = Ok<'/node/api/objects/{id}/state'>;
export type Annotation = Ok<'/node/api/history-annotations'>[number];
export type CheckDefinition = components['schemas']['CheckDefinition'];
export type LinkRecord = Ok<'/node/api/links/{id}'>;
export type Doc = Ok<'/node/api/objects/{id}/docs'>[number];
