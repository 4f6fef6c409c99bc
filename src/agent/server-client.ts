// The agent's side of the API: register, check in, send results. Plain fetch with the API
// token as a Bearer header; every call has a timeout so a stuck server cannot stall the agent.
export interface AssignedCheck {
  key: string;
  entityId: string;
  entityType: number;
  propertyId: string;
  name: string;
  definition: Record<string, unknown>;
}

export interface CheckInAnswer {
  revision: string;
  checks: AssignedCheck[];
  limits: { minIntervalMs: number; maxIntervalMs: number };
  checkInMs: number;
}

export interface StatItem {
  entityId: string;
  timestamp: number;
  data: Record<string, number | string>;
}

export class ServerError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

const TIMEOUT_MS = 15_000;

export function createServerClient(server: string, token: string) {
  const base = `${server.replace(/\/+$/, '')}/node/api`;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const text = await res.text();
    if (!res.ok) {
      let message = text;
      try {
        message = (JSON.parse(text) as { message?: string }).message ?? text;
      } catch {
        // not the API's error body
      }
      throw new ServerError(res.status, `${method} ${path}: ${res.status} ${message}`);
    }
    return (text ? JSON.parse(text) : undefined) as T;
  }

  return {
    register: (name: string, version: string) => call<{ id: string; name: string }>('POST', '/agents/register', { name, version }),
    checkIn: (id: string, version: string) => call<CheckInAnswer>('POST', `/agents/${encodeURIComponent(id)}/check-in`, { version }),
    sendStats: (items: StatItem[]) => call<void>('POST', '/stat', items),
  };
}

export type ServerClient = ReturnType<typeof createServerClient>;
