// The one handler that turns any thrown error into the API's `{code, message}` body and its
// status. Services throw AppError (src/errors.ts); everything else is a bug (500).
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BudgetExceededError } from '../core/safe-regex.js';
import { setResponseHeaders } from './response-headers.js';
import { AppError, type ErrorCode } from '../errors.js';

const STATUS: Record<ErrorCode, number> = {
  InvalidContent: 400,
  BadRequest: 400,
  Unauthorized: 401,
  InvalidCredentials: 401,
  Forbidden: 403,
  ResourceNotFound: 404,
  Conflict: 409,
  PayloadTooLarge: 413,
  TooManyRequests: 429,
  ServiceUnavailable: 503,
  Internal: 500,
};

/** The HTTP status of an error code. */
export const statusOf = (code: ErrorCode): number => STATUS[code];

/** Fastify's own errors (parsing, validation, limits) mapped onto the API's codes. */
function fromFastifyError(err: FastifyError): AppError | undefined {
  if (err.validation) {
    const where = err.validationContext ?? 'request';
    // Every path parameter names something (an id): one that cannot exist (too long, wrong
    // shape) is simply not there, as for any unknown id. Clients that look up what an
    // operator types (the Grafana plugin) take a 404 in stride and break on a 400.
    if (where === 'params') {
      const name = err.validation[0]?.instancePath.replace(/^\//, '') || 'id';
      return new AppError('ResourceNotFound', `not found: no ${name} has this form`);
    }
    const first = err.validation[0];
    const path = first?.instancePath ? first.instancePath.replace(/^\//, '').replace(/\//g, '.') : '';
    const subject = path ? `${where}.${path}` : where;
    const extra = first?.keyword === 'additionalProperties' ? (first.params as { additionalProperty?: string }).additionalProperty : undefined;
    if (extra !== undefined) return new AppError('BadRequest', `${subject}.${extra}: unknown field`);
    // Only a body of the wrong type as a whole is InvalidContent; a missing or bad field
    // (a 'required' error also sits at the root path) is BadRequest naming that field.
    const code = where === 'body' && err.validation.some((v) => v.instancePath === '' && v.keyword === 'type') ? 'InvalidContent' : 'BadRequest';
    return new AppError(code, `${subject} ${first?.message ?? 'is invalid'}`);
  }
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PayloadTooLarge', 'request body is larger than the configured limit');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('InvalidContent', `unsupported Content-Type; send application/json`);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('InvalidContent', err.message);
    case 'FST_ERR_CTP_INVALID_TYPE':
      return new AppError('InvalidContent', 'Content-Type header is invalid');
  }
  if (err instanceof SyntaxError) return new AppError('InvalidContent', `body is not valid JSON: ${err.message}`);
  // Other 4xx errors raised by Fastify or plugins (e.g. bad URL encoding) are client errors.
  if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
    return new AppError(err.statusCode === 404 ? 'ResourceNotFound' : 'BadRequest', err.message);
  }
  return undefined;
}

export function toAppError(err: unknown): AppError | undefined {
  if (err instanceof AppError) return err;
  // A scan or filter stopped by its cost or time budget (core/safe-regex.ts): the request asked
  // for more work than one request may do, which is the caller's to narrow.
  if (err instanceof BudgetExceededError) return new AppError('BadRequest', err.message);
  if (err && typeof err === 'object') return fromFastifyError(err as FastifyError);
  return undefined;
}

export function sendError(reply: FastifyReply, err: AppError): FastifyReply {
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
  return reply.code(statusOf(err.code)).type('application/json; charset=utf-8').send({ code: err.code, message: err.message });
}

/**
 * For Fastify's `frameworkErrors` option: errors the router raises before any hook or error
 * handler runs (a path with bad percent-encoding), in the same `{code, message}` body.
 */
export function handleFrameworkError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // No hook runs for these: the request id and the security headers are set here.
  setResponseHeaders(request, reply);
  sendError(reply, toAppError(err) ?? new AppError('BadRequest', 'bad request'));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const known = toAppError(err);
    if (known) return sendError(reply, known);
    // request.log binds the request id (app.ts's child logger).
    request.log.error({ err }, 'unhandled error');
    return sendError(reply, new AppError('Internal', `internal error (request id ${request.id})`));
  });
  app.setNotFoundHandler((request, reply) => {
    sendError(reply, new AppError('ResourceNotFound', `no route for ${request.method} ${request.url.split('?')[0]}`));
  });
}
