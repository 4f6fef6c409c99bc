// The secrets of a check definition (the JSON value of a service property, type 8): what a
// reader without manage-service-properties sees instead of them. A check is shown whole but
// for its SNMP community and v3 keys, its HTTP header values and body, and the credentials
// and query values of an HTTP check's URL (its target).
import { MASK, maskHeaders, maskUrl } from './mask.js';

/** The property type that holds check definitions (entities/entity-input.ts SERVICE_PROPERTY). */
export const SERVICE_PROPERTY_TYPE = 8;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function redactCheckSecrets(definition: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...definition };
  if (typeof out.community === 'string') out.community = MASK;
  if (typeof out.body === 'string') out.body = MASK;
  if (isObject(out.headers)) out.headers = maskHeaders(out.headers);
  if (isObject(out.user)) {
    const user: Record<string, unknown> = { ...out.user };
    for (const key of ['authKey', 'privKey']) if (key in user) user[key] = MASK;
    out.user = user;
  }
  if (out.type === 'http' && typeof out.target === 'string') out.target = maskUrl(out.target);
  return out;
}

/**
 * The stored text of a service property as such a reader sees it. A value that is not a JSON
 * object is no check: it is unchanged (property rules refuse such values for new checks).
 */
export function redactPropertyText(value: string): string {
  if (!value.trimStart().startsWith('{')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!isObject(parsed)) return value;
    return JSON.stringify(redactCheckSecrets(parsed));
  } catch {
    return value;
  }
}

/** The shape of a stored property this module needs. */
export interface PropertyLike {
  value: string;
  type_id: number;
}

// Stored property rows are replaced, never changed in place, when a property changes: one
// redacted copy per row serves every read (a search tests every object's properties).
const redacted = new WeakMap<object, PropertyLike>();

/** The property as a reader without the right sees it (the same row when it holds no secret). */
export function redactProperty<P extends PropertyLike>(row: P): P {
  if (row.type_id !== SERVICE_PROPERTY_TYPE) return row;
  let copy = redacted.get(row);
  if (!copy) redacted.set(row, (copy = { ...row, value: redactPropertyText(row.value) }));
  return copy as P;
}

/** A list of properties as such a reader sees it. */
export function redactProperties<P extends PropertyLike>(rows: readonly P[]): P[] {
  return rows.map(redactProperty);
}
