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

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  addFormats(ajv);
  return ajv;
}

export function registerValidators(app: FastifyInstance): void {
  const forText = makeAjv({ coerceTypes: 'array' });
  const forBodies = makeAjv({ coerceTypes: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? forBodies : forText).compile(schema));
}
