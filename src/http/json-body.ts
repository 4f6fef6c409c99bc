// JSON request bodies: size is bounded by Fastify's bodyLimit, nesting depth is bounded here
// before parsing, so a hostile body cannot exhaust the stack of any code that walks it later.
import type { FastifyInstance } from 'fastify';
import secureJson from 'secure-json-parse';
import { jsonDepthExceeds } from '../core/json-depth.js';
import { AppError } from './errors.js';

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

export function registerJsonBodyParser(app: FastifyInstance, maxDepth: number): void {
  app.removeContentTypeParser(['application/json', 'text/plain']);
  // Fastify tests this against the whole header with its parameters ("application/json;
  // charset=utf-8"), so the media type may be followed by ';'.
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json\s*(;|$)/i, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, parseJsonText(text, maxDepth));
    } catch (err) {
      done(err as Error, undefined);
    }
  });
  // Plain text bodies are kept as strings (incident comments are sent as text).
  app.addContentTypeParser('text/plain', { parseAs: 'string' }, (_req, body, done) => done(null, body));
}
