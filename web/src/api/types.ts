// Picking body types out of the generated OpenAPI types (schema.d.ts), so no page copies a
// shape by hand: `Json<paths['/node/api/tags']['get']['responses'][200]>`.
export type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never;
