// The fields of a create or change body that the route does not write (api-extensions.md
// "Objects": a field a route cannot change is refused with 400, never dropped silently).
//
// Clients of this API family commonly GET a record and PATCH it back whole, with its id, path,
// state_id, created and the other fields the server keeps. Such a field is accepted when it
// carries the value the record has now (as this caller reads it), and refused, naming it, when
// it differs: a client that sends `state_id: 6` or a new `path` means a change this route does
// not make (a record read a while ago may carry a stale value; the answer says which field).
// A name the record does not have at all is refused as unknown. The request schemas let these
// fields through (the validator would strip them instead of refusing them).
//
// Some fields change on their own while a client holds a record (state_id and
// last_state_update with every evaluation, metrics_cache with new metrics, updated with every
// change, child_ids as children come and go, path and class_name with any rename above): sent
// back, they are accepted whatever their value, or a bulk tool that reads once and writes
// twice, or writes while data flows, would fail at random. These routes never write them
// (states: PUT .../state or .../manual-state).
import type { TObject } from 'typebox';
import { badRequest } from '../../errors.js';

/** Fields that move without the client's doing: accepted in a body whatever their value. */
const CHANGES_ON_ITS_OWN: ReadonlySet<string> = new Set(['state_id', 'last_state_update', 'metrics_cache', 'updated', 'child_ids', 'path', 'class_name', 'maintenance']);

/** The fields a body schema writes. */
export const writableFields = (schema: TObject): ReadonlySet<string> => new Set(Object.keys(schema.properties));

/** Same value as a client may send it back: ids as numbers or strings, arrays and objects by content. */
function sameValue(sent: unknown, shown: unknown): boolean {
  if (sent === shown) return true;
  if ((typeof sent === 'number' || typeof sent === 'string') && (typeof shown === 'number' || typeof shown === 'string')) return String(sent) === String(shown);
  if (Array.isArray(sent) && Array.isArray(shown)) return sent.length === shown.length && sent.every((v, i) => sameValue(v, shown[i]));
  if (typeof sent === 'object' && sent !== null && typeof shown === 'object' && shown !== null && !Array.isArray(sent) && !Array.isArray(shown)) {
    const a = sent as Record<string, unknown>;
    const b = shown as Record<string, unknown>;
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

const shortJson = (v: unknown) => {
  const text = JSON.stringify(v) ?? 'nothing';
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
};

/**
 * Refuses (400) a body field outside `writable` unless `current` (the record as the caller
 * reads it; on create, the fields a new record will have for certain) has it with that value.
 * `recordFields` are the other fields records have (refused as set by the server, not unknown).
 * `_id` is taken as the record's id (the name clients of MongoDB-based servers use).
 */
export function refuseUnwritableFields(
  body: unknown, writable: ReadonlySet<string>, current: Record<string, unknown>, recordFields: ReadonlySet<string> = new Set(), where = 'body',
): void {
  if (typeof body !== 'object' || body === null) return;
  for (const [field, value] of Object.entries(body)) {
    if (writable.has(field)) continue;
    const shown = field === '_id' ? current.id : current[field];
    if (shown !== undefined && (CHANGES_ON_ITS_OWN.has(field) || sameValue(value, shown))) continue;
    if (shown !== undefined) {
      throw badRequest(`${where}.${field}: cannot be changed here (sent back, it must carry the value the record has: ${shortJson(shown)})`);
    }
    if (recordFields.has(field) || field === '_id') throw badRequest(`${where}.${field}: set by the server; this route writes ${[...writable].join(', ')}`);
    throw badRequest(`${where}.${field}: unknown field; this route writes ${[...writable].join(', ')}`);
  }
}
