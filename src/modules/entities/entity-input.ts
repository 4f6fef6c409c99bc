// Turning request fields into catalog values, with the checks that need the catalog: ids
// given as numbers or strings, parents, classes and tags that must exist, client_data as text.
import { badRequest } from '../../errors.js';
import type { PropRow } from '../../storage/catalog-types.js';
import type { EntityActor } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import type { PropertyRules } from './property-rules.js';
import type { PropertyInputT } from './schemas.js';
import { DEFAULT_PROPERTY_TYPE, PROPERTY_TYPES, READ_ONLY_PROPERTY, SERVICE_PROPERTY } from './property-types.js';

const CANONICAL_ID = /^[1-9][0-9]{0,15}$/;

/** An id as the catalog keys it, or undefined when it cannot name anything. */
export function idOf(value: string | number): string | undefined {
  const s = String(value).trim();
  return CANONICAL_ID.test(s) ? s : undefined;
}

/** The record a client-written id names, found by a catalog reader (`catalog.object`, say), if any. */
export function lookup<T>(find: (id: string) => T | undefined, id: string): T | undefined {
  const key = idOf(id);
  return key === undefined ? undefined : find(key);
}

export function idList(field: string, value: string | number | Array<string | number>): string[] {
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const v of list) {
    const id = idOf(v);
    if (id === undefined) throw badRequest(`${field}: "${v}" is not an id`);
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

export function clientDataText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

export function classIdOf(catalog: Catalog, value: string | number | null | undefined): string | null {
  if (value === undefined || value === null || value === '') return null;
  const id = idOf(value);
  if (id === undefined || !catalog.classById(id)) throw badRequest(`class_id: unknown class ${value}`);
  return id;
}

export function tagIdsOf(catalog: Catalog, value: Array<string | number>): string[] {
  const ids = idList('tags', value);
  const unknown = ids.filter((t) => !catalog.tag(t));
  if (unknown.length > 0) throw badRequest(`tags: unknown tag ${unknown.join(', ')}`);
  return ids;
}

export { PROPERTY_TYPES, READ_ONLY_PROPERTY, SERVICE_PROPERTY, DEFAULT_PROPERTY_TYPE };

export function checkPropertyType(typeId: number, where: string): number {
  if (!PROPERTY_TYPES.has(typeId) && !(Number.isInteger(typeId) && typeId >= 101)) {
    throw badRequest(`${where}type_id: ${typeId} is not a property type (1, 2, 3, 6, 7, 8 or 101 and above)`);
  }
  return typeId;
}

export const MAX_PROPERTY_TEXT = 65_536;

/** Stored text of a value: an object (a check definition, say) as JSON text, bounded as text is. */
export function propertyValueText(value: PropertyInputT['value']): string {
  if (value === null) return '';
  if (typeof value !== 'object') return String(value);
  const text = JSON.stringify(value);
  if (text.length > MAX_PROPERTY_TEXT) throw badRequest(`value: at most ${MAX_PROPERTY_TEXT} characters as JSON text`);
  return text;
}

/** New property rows for an entity being created; names must be unique among them. */
export function newProperties(catalog: Catalog, rules: PropertyRules, actor: EntityActor, entityId: string, input: PropertyInputT[] | undefined, now: number): PropRow[] {
  const seen = new Set<string>();
  const where = new Map<string, string>();
  const rows = (input ?? []).map((p, i) => {
    if (seen.has(p.name)) throw badRequest(`properties[${i}].name: "${p.name}" appears twice`);
    seen.add(p.name);
    const type_id = checkPropertyType(p.type_id ?? DEFAULT_PROPERTY_TYPE, `properties[${i}].`);
    // Only service properties are guarded at creation: creating an object with plain
    // properties has never needed manage-properties.
    if (type_id === SERVICE_PROPERTY) rules.rightsFor(actor, type_id);
    const row: PropRow = { id: catalog.nextId('props'), entity_id: entityId, name: p.name, value: propertyValueText(p.value), type_id, created: now, updated: now };
    where.set(row.id, `properties[${i}].`);
    return row;
  });
  rules.validate(rows, rows, (p) => where.get(p.id) ?? '');
  return rows;
}
