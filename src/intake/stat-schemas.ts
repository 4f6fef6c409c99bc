// The stat bodies as TypeBox schemas, for the OpenAPI document and the UI's generated types.
// They describe what stat-validation.ts takes, but the refusals stay that file's: its messages
// name the item and field (`[3].data.timestamp: ...`), its checks run after the entity's
// visibility and push right (a 404 or 403 before a 400), a body that is not an object is its
// InvalidContent, and a "timestamp" that is not a number is just a measurement. So the routes
// take these with `attachValidation` and let a body that fails them through to the service,
// which decides as before (`statBodyOnly` below); the id is refused as usual.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { MAX_BATCH_ITEMS } from './stat-validation.js';

/** One entity's measurements: free-form, numbers go to history. */
export const StatBody = Type.Object({
  timestamp: Type.Optional(Type.Integer({ minimum: 0, description: 'Time of the measurements, ms since 1970 (default: now); at most engine.maxFutureMs ahead' })),
}, {
  additionalProperties: true,
  description: 'Any JSON object of measurements, e.g. {"cpu":{"load1":1.92},"status":"ok"}. Nested keys flatten to dotted metric names (cpu.load1); '
    + 'numbers go to history; every value can be tested by conditions. A top-level numeric "timestamp" (ms) is the time of the measurements (default: now).',
});

/** POST /stat: many entities' measurements at once. */
export const BatchBody = Type.Array(Type.Object({
  entityId: Type.Union([Type.String({ maxLength: 32 }), Type.Integer()], { description: 'The entity the data is about' }),
  timestamp: Type.Optional(Type.Integer({ minimum: 0, description: 'Time of the measurements, ms since 1970 (default: now); a "timestamp" in data is then a measurement' })),
  data: StatBody,
}, { additionalProperties: false }), {
  maxItems: MAX_BATCH_ITEMS,
  description: `Array of at most ${MAX_BATCH_ITEMS} items {"entityId": "12", "timestamp": 1700000000000 (optional), "data": {...}}. All items are checked first: one bad item stores nothing.`,
});

/**
 * Throws what the route's schema found wrong outside the body (with `attachValidation` Fastify
 * only attaches it); a body that failed is left to the stat service, which says why in its words.
 */
export function statBodyOnly(req: FastifyRequest): void {
  const err = req.validationError as (Error & { validationContext?: string }) | undefined;
  if (err && err.validationContext !== 'body') throw err;
}
