// The one way the UI talks to the server: openapi-fetch typed by the server's own OpenAPI
// document (schema.d.ts is generated from it), the session cookie sent along, the CSRF token
// added to every state-changing request, and the API's {code, message} errors thrown as
// ApiError so pages can show them as they are.
import createClient, { type Middleware } from 'openapi-fetch';
import type { paths, components } from './schema';

export type { paths, components };

export class ApiError extends Error {
  constructor(readonly status: number, readonly code: string, message: string) {
    super(message);
  }
}

export function csrfToken(): string | undefined {
  const m = /(?:^|;\s*)csrf=([^;]+)/.exec(document.cookie);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

/** Told when a request comes back 401: the session ended (the app shows the sign-in page). */
let onUnauthorized: () => void = () => undefined;
export const setUnauthorizedHandler = (f: () => void) => {
  onUnauthorized = f;
};

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

const session: Middleware = {
  onRequest({ request }) {
    const token = csrfToken();
    if (!SAFE.has(request.method) && token) request.headers.set('x-csrf-token', token);
    return request;
  },
  async onResponse({ response, request }) {
    if (response.ok) return response;
    let code = 'Error';
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = (await response.clone().json()) as { code?: string; message?: string };
      if (body.code) code = body.code;
      if (body.message) message = body.message;
    } catch {
      // not the API's error body
    }
    if (response.status === 401 && !request.url.endsWith('/users/session')) onUnauthorized();
    throw new ApiError(response.status, code, message);
  },
};

export const api = createClient<paths>({ baseUrl: '', credentials: 'same-origin' });
api.use(session);

/** Plain fetch for what openapi-fetch does not fit (files, text bodies), with the same rules. */
export async function rawFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = csrfToken();
  if (!SAFE.has((init.method ?? 'GET').toUpperCase()) && token) headers.set('x-csrf-token', token);
  const response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  if (!response.ok) {
    let code = 'Error';
    let message = `${response.status} ${response.statusText}`;
    try {
      const body = (await response.clone().json()) as { code?: string; message?: string };
      code = body.code ?? code;
      message = body.message ?? message;
    } catch {
      // not JSON
    }
    if (response.status === 401) onUnauthorized();
    throw new ApiError(response.status, code, message);
  }
  return response;
}

/** The data of an openapi-fetch answer (errors were thrown by the middleware already). */
export function data<T>(result: { data?: T; error?: unknown }): T {
  return result.data as T;
}
