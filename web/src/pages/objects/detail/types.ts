// Shapes of the object routes, taken from the generated OpenAPI types (never copied by hand).
import type { components, paths } from '../../../api/client';

type Ok<P extends keyof paths, M extends 'get' | 'post' | 'patch'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } } | { 201: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type ObjectRecord = Ok<'/node/api/objects/{id}', 'get'>;
export type Tag = Ok<'/node/api/tags', 'get'>[number];
export type Property = Ok<'/node/api/objects/{id}/props', 'get'>[number];
export type Check = Ok<'/node/api/objects/{id}/checks', 'get'>[number];
export type StateChange = Ok<'/node/api/objects/{id}/state-history', 'get'>[number];
export type ManualState = Ok<'/node/api/objects/{id}/state', 'get'>;
export type Annotation = Ok<'/node/api/history-annotations', 'get'>[number];
export type CheckDefinition = components['schemas']['CheckDefinition'];
