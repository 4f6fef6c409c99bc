// Parsing JSON text a client sent (a request body, a `filter` parameter, an MQTT payload):
// nesting depth is checked before parsing, so a hostile text cannot exhaust the stack of any
// code that walks the result later, and prototype keys are dropped.
import secureJson from 'secure-json-parse';
import { AppError } from '../../errors.js';
import { jsonDepthExceeds } from '../json-depth.js';

export function parseJsonText(text: string, maxDepth: number): unknown {
  if (jsonDepthExceeds(text, maxDepth)) {
    throw new AppError('InvalidContent', `JSON nesting deeper than ${maxDepth} levels`);
  }
  try {
    return secureJson.parse(text, undefined, { protoAction: 'remove', constructorAction: 'remove' });
  } catch (err) {
    throw new AppError('InvalidContent', `body is not valid JSON: ${(err as Error).message}`);
  }
}
