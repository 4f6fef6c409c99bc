// Reading one field of a raw check definition: texts, flags, bounded numbers, choices, durations
// and host:port targets, each failing with a CheckDefinitionError that names the field.
import { CheckDefinitionError } from './check-types.js';

export type Raw = Record<string, unknown>;

export const fail = (where: string, message: string): never => {
  throw new CheckDefinitionError(`${where}: ${message}`);
};

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds from a whole number of ms or a text like "30s", "5m", "250ms". */
export function durationMs(value: unknown, where: string): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) fail(where, 'a positive whole number of milliseconds, or a text like "30s"');
    return value;
  }
  if (typeof value === 'string') {
    const m = DURATION.exec(value.trim());
    if (m) {
      const ms = Math.round(Number(m[1]) * UNIT_MS[m[2]!]!);
      if (ms > 0 && Number.isSafeInteger(ms)) return ms;
    }
  }
  return fail(where, 'a positive whole number of milliseconds, or a text like "30s", "5m", "250ms"');
}

export function text(raw: Raw, key: string, where: string, max = 1024): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail(`${where}.${key}`, 'a text');
  if ((v as string).length > max) fail(`${where}.${key}`, `at most ${max} characters`);
  return v as string;
}

export function flag(raw: Raw, key: string, where: string, fallback: boolean): boolean {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') fail(`${where}.${key}`, 'true or false');
  return v as boolean;
}

export function integer(raw: Raw, key: string, where: string, fallback: number, min: number, max: number): number {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(`${where}.${key}`, `a whole number from ${min} to ${max}`);
  return v as number;
}

export function oneOf<T extends string>(raw: Raw, key: string, where: string, allowed: readonly T[], fallback: T | undefined, fold = (s: string) => s): T | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !(allowed as readonly string[]).includes(fold(s))) fail(`${where}.${key}`, `one of ${allowed.join(', ')}`);
  return fold(s as string) as T;
}

export function refuseUnknown(raw: Raw, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) fail(`${where}.${key}`, 'not a field of this check type');
}

export const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\.?$/;
export const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

export function hostOf(value: string, where: string): string {
  const h = value.trim();
  if (IPV4.test(h) || (h.includes(':') && IPV6.test(h)) || HOSTNAME.test(h)) return h;
  return fail(where, `"${value}" is not a host name or IP address`);
}

/** `host:port`, `[v6]:port` or a bare host (then `port` must be given). */
export function hostPort(target: string, port: unknown, where: string, fallbackPort?: number): { host: string; port: number } {
  let host = target.trim();
  let p: number | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracket) {
    host = bracket[1]!;
    if (bracket[2] !== undefined) p = Number(bracket[2]);
  } else if (host.split(':').length === 2) {
    const [h, ps] = host.split(':') as [string, string];
    if (!/^\d+$/.test(ps)) fail(`${where}.target`, `"${target}": the port after ":" must be a number`);
    host = h;
    p = Number(ps);
  }
  if (port !== undefined && port !== null) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) fail(`${where}.port`, 'a port number from 1 to 65535');
    p = port as number;
  }
  p ??= fallbackPort;
  if (p === undefined) fail(`${where}.target`, `"${target}" needs a port: "host:port", or give "port"`);
  if (p! < 1 || p! > 65535) fail(`${where}.target`, `port ${p} is not from 1 to 65535`);
  return { host: hostOf(host, `${where}.target`), port: p! };
}
