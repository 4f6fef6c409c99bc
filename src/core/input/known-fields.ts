// Bodies whose every field means something (annotations, presets, stat batches, bulk
// properties): a field the route does not know is refused by name, so a misspelt "contnet" is
// not silently ignored.
// The app's validator would strip them under `additionalProperties: false` (removeAdditional)
// rather than refuse them, so the schemas let them through and the service checks the body.
import { badRequest } from '../../errors.js';

export function refuseUnknownFields(body: object, known: readonly string[], where = 'body'): void {
  const unknown = Object.keys(body).filter((k) => !known.includes(k));
  if (unknown.length > 0) throw badRequest(`${where}.${unknown[0]}: unknown field; known: ${known.join(', ')}`);
}
