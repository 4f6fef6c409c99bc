// POST /users/search filter rules (monitoring-api.md): MongoDB-style over user fields, plus
// `email: {contains}`; nested objects match only as a whole, never by inner fields.
import { assertSafeQuery, compileQuery, QueryError, type Predicate } from '../../core/safe-query.js';
import type { UserView } from './schemas.js';

const never = () => false;

function rewrite(query: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(query)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      out[key] = (value as unknown[]).map((q) => (typeof q === 'object' && q !== null ? rewrite(q as Record<string, unknown>) : q));
    } else if (!key.startsWith('$') && key.includes('.')) {
      // A path into a nested object ("objectPermissions.include") names no user field.
      out[key] = never;
    } else if (key === 'email' && isContains(value)) {
      out[key] = containsTest(value);
    } else if (key === 'email' && isNotContains(value)) {
      const test = containsTest(value.$not);
      out[key] = (v: unknown) => !test(v);
    } else {
      out[key] = value;
    }
  }
  return out;
}

function containsTest(value: { contains: unknown }): (v: unknown) => boolean {
  const part = value.contains;
  if (typeof part !== 'string') throw new QueryError('email.contains takes a string');
  return (v: unknown) => typeof v === 'string' && v.includes(part);
}

function isNotContains(v: unknown): v is { $not: { contains: unknown } } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && isContains((v as { $not?: unknown }).$not);
}

function isContains(v: unknown): v is { contains: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 1 && 'contains' in v;
}

export function compileUserFilter(query: unknown): Predicate<UserView> {
  assertSafeQuery(query);
  return compileQuery<UserView>(rewrite(query) as never);
}
