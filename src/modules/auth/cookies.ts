// Cookies, read and written with the `cookie` package only where sign-in needs them: a
// Fastify cookie plugin would parse and re-check cookies on every request and response.
import { parseCookie, stringifySetCookie, type SerializeOptions } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  return header ? parseCookie(header)[name] : undefined;
}

/** Adds a Set-Cookie header (Fastify keeps every Set-Cookie given, in order). */
export function setCookie(reply: FastifyReply, name: string, value: string, options: SerializeOptions): void {
  reply.header('set-cookie', stringifySetCookie(name, value, options));
}

export function clearCookie(reply: FastifyReply, name: string, options: SerializeOptions): void {
  setCookie(reply, name, '', { ...options, maxAge: 0, expires: new Date(0) });
}
