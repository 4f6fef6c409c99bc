// What a list of properties sent to replace a class's properties means (PUT
// /classes/:id/props): which stored ones it removes, changes or keeps, and which it creates.
// Items are matched by `id` when they carry one (a list read and sent back), else by name. A
// reader without manage-service-properties was shown check secrets masked: a service property
// sent back exactly as shown is unchanged (the stored secret stays), as for entities.
import { redactPropertyText } from '../../core/secrets/check-secrets.js';
import { badRequest } from '../../errors.js';
import type { ClassPropRow } from '../../storage/catalog-types.js';
import { DEFAULT_PROPERTY_TYPE, SERVICE_PROPERTY, checkPropertyType, propertyValueText } from '../entities/entity-input.js';
import type { PropertyInputT } from '../entities/schemas.js';

export type ClassPropItem = PropertyInputT & { id?: string };

export interface ClassPropsPlan {
  removed: ClassPropRow[];
  /** Stored rows with their new fields (not yet stamped). */
  changed: Array<{ before: ClassPropRow; after: ClassPropRow }>;
  created: Array<{ name: string; value: string; type_id: number; where: string }>;
  /** Where each changed row came from in the request, for messages. */
  whereOf: Map<string, string>;
}

export function classPropsPlan(stored: readonly ClassPropRow[], incoming: readonly ClassPropItem[], readsSecrets: boolean): ClassPropsPlan {
  const plan: ClassPropsPlan = { removed: [], changed: [], created: [], whereOf: new Map() };
  const names = new Set<string>();
  const matched = new Set<string>();
  incoming.forEach((item, i) => {
    const where = `[${i}].`;
    if (names.has(item.name)) throw badRequest(`${where}name: "${item.name}" appears twice`);
    names.add(item.name);
    const prop = item.id !== undefined ? stored.find((p) => p.id === String(item.id)) : stored.find((p) => p.name === item.name);
    if (item.id !== undefined && !prop) throw badRequest(`${where}id: the class has no property ${item.id}`);
    let value = propertyValueText(item.value);
    const type_id = checkPropertyType(item.type_id ?? prop?.type_id ?? DEFAULT_PROPERTY_TYPE, where);
    if (!prop) {
      plan.created.push({ name: item.name, value, type_id, where });
      return;
    }
    if (matched.has(prop.id)) throw badRequest(`${where}: property "${prop.name}" is given twice`);
    matched.add(prop.id);
    if (!readsSecrets && prop.type_id === SERVICE_PROPERTY && value === redactPropertyText(prop.value)) value = prop.value;
    if (item.name === prop.name && value === prop.value && type_id === prop.type_id) return;
    plan.whereOf.set(prop.id, where);
    plan.changed.push({ before: prop, after: { ...prop, name: item.name, value, type_id } });
  });
  plan.removed = stored.filter((p) => !matched.has(p.id));
  return plan;
}
