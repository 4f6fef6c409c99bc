// Request validation. Query strings, path parameters and headers arrive as text, so they are
// coerced to the schema's types; JSON bodies are not, so `"password": true` or `null` where a
// string belongs is refused instead of being stored as "true" or "".
import type { FastifyInstance } from 'fastify';
import { Ajv, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with its function on `default`; how that surfaces depends on the loader.
type AddFormats = (ajv: Ajv) => Ajv;
const addFormats: AddFormats =
  (addFormatsModule as unknown as { default?: AddFormats }).default ?? (addFormatsModule as unknown as AddFormats);

const common: Options = { useDefaults: true, removeAdditional: true, allErrors: false, allowUnionTypes: true, strict: false };

/**
 * A JSON body field a route does not know is refused (400 naming it), never dropped silently
 * (api-extensions.md "Objects": a client must learn that its change was not made). A body
 * object schema that says nothing about other fields is closed here; one that takes free-form
 * data, or checks echoed fields itself (objects and links), says `additionalProperties: true`.
 */
function closedBody(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = schema as Record<string, unknown>;
  if (s.type !== 'object' || s.properties === undefined || 'additionalProperties' in s || 'patternProperties' in s) return schema;
  return { ...s, additionalProperties: false };
}

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats(ajv);
  return ajv;
}

export function registerValidators(app: FastifyInstance): void {
  const forText = makeAjv({ coerceTypes: 'array' });
  const forBodies = makeAjv({ coerceTypes: false, removeAdditional: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? forBodies.compile(closedBody(schema) as object) : forText.compile(schema)));
}
