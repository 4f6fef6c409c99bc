// JSON request bodies: size is bounded by Fastify's bodyLimit, nesting depth by parseJsonText
// (core/input/json-text.ts) before parsing, so a hostile body cannot exhaust the stack of any
// code that walks it later.
import type { FastifyInstance } from 'fastify';
import { parseJsonText } from '../core/input/json-text.js';

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
