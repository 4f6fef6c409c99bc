// The one error type of the program. Services, stores and listeners throw AppError with a
// stable code; http/errors.ts maps each code onto an HTTP status and the `{code, message}`
// body, and the listeners (MQTT, traps) onto their own answers. No transport is named here,
// so every layer can throw it.

export type ErrorCode =
  | 'InvalidContent'
  | 'BadRequest'
  | 'Unauthorized'
  | 'InvalidCredentials'
  | 'Forbidden'
  | 'ResourceNotFound'
  | 'Conflict'
  | 'PayloadTooLarge'
  | 'TooManyRequests'
  | 'ServiceUnavailable'
  | 'Internal';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const badRequest = (message: string) => new AppError('BadRequest', message);
export const notFound = (what: string) => new AppError('ResourceNotFound', `${what} not found`);
export const conflict = (message: string) => new AppError('Conflict', message);
export const forbidden = (right: string) => new AppError('Forbidden', `Forbidden: right "${right}" is required`);
