// What a list of properties sent to replace an entity's properties means, property by property
// (PATCH /objects/:id or /links/:id with `properties`): which stored ones it removes, changes
// or leaves as they are, and which it creates. Items are matched to stored properties by `id`
// when they carry one (a record read and sent back), else by name.
//
// A reader without manage-service-properties is shown check secrets masked, and sends back what
// it was shown: a service property whose value is exactly what such a reader is shown is
// unchanged, so the stored secret stays (as state triggers keep theirs, core/secrets). Any other
// change of a service property needs the right anyway (property-rules.ts).
//
// Records also show the properties the entity inherits from its class (`inherited: true`, the
// class property's id). Sent back unchanged they are left alone (they are the class's); sent
// changed, they become the entity's own property of that name (an override).
import { redactProperty, redactPropertyText } from '../../core/secrets/check-secrets.js';
import { badRequest } from '../../errors.js';
import type { PropRow } from '../../storage/catalog-types.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { EffectiveProp } from '../../core/classes/effective.js';
import { propertyValueText } from './entity-input.js';
import { SERVICE_PROPERTY, type PropertyChange } from './property-types.js';
import { refuseUnwritableFields, writableFields } from './body-fields.js';
import { type PropertyInputT, PropertyReplaceItem, type PropertyReplaceItemT } from './schemas.js';

const ITEM_FIELDS = writableFields(PropertyReplaceItem);
/** The fields of a property record beside the ones an item writes. */
const PROPERTY_RECORD_FIELDS = new Set(['entity_id', 'created', 'updated']);

export interface ReplacementPlan {
  removed: PropRow[];
  changed: Array<{ prop: PropRow; change: PropertyChange; where: string }>;
  created: Array<{ input: PropertyInputT; where: string }>;
  /** The request field a property (by id, or by name when it is new) came from, for messages. */
  whereOf(id: string, name: string): string;
}

/**
 * The items that concern the entity's own properties: inherited ones sent back unchanged are
 * left out, changed ones become items of a new own property (no id, no marker).
 */
export function withoutInherited(incoming: readonly PropertyReplaceItemT[], inherited: readonly EffectiveProp[], clearSecrets: boolean): PropertyReplaceItemT[] {
  if (!incoming.some((i) => i.inherited !== undefined || i.class_id !== undefined) && inherited.length === 0) return [...incoming];
  const out: PropertyReplaceItemT[] = [];
  for (const item of incoming) {
    const from = item.id !== undefined ? inherited.find((p) => p.id === item.id) : item.inherited ? inherited.find((p) => p.name === item.name) : undefined;
    const { inherited: _marker, class_id: _class, ...rest } = item;
    if (!from) {
      // Marked inherited, but the class has it no more: nothing of the entity's to change.
      if (item.inherited) continue;
      out.push(rest);
      continue;
    }
    let value = propertyValueText(item.value);
    if (!clearSecrets && from.type_id === SERVICE_PROPERTY && value === redactPropertyText(from.value)) value = from.value;
    if (item.name === from.name && value === from.value && (item.type_id ?? from.type_id) === from.type_id) continue;
    // The record's other fields (entity_id, created, ...) were the class property's, not a new one's.
    out.push({ name: item.name, value, type_id: item.type_id ?? from.type_id });
  }
  return out;
}

export function replacementOf(entity: MemEntity, incoming: readonly PropertyReplaceItemT[], clearSecrets: boolean): ReplacementPlan {
  const matched = new Set<string>();
  const names = new Set<string>();
  const whereById = new Map<string, string>();
  const whereByName = new Map<string, string>();
  const plan: ReplacementPlan = {
    removed: [],
    changed: [],
    created: [],
    whereOf: (id, name) => whereById.get(id) ?? whereByName.get(name) ?? 'properties: ',
  };
  const storedFor = (item: PropertyReplaceItemT) => (item.id !== undefined ? entity.properties.find((p) => p.id === item.id) : entity.properties.find((p) => p.name === item.name));
  incoming.forEach((item, i) => {
    const where = `properties[${i}].`;
    // An item is often a property record read and sent back: its other fields (entity_id,
    // created, updated) are taken when they carry the stored values, refused when they differ.
    const shown = storedFor(item);
    const current: Record<string, unknown> = shown ? { ...(clearSecrets ? shown : redactProperty(shown)) } : { entity_id: entity.id };
    refuseUnwritableFields(item, ITEM_FIELDS, current, PROPERTY_RECORD_FIELDS, `body.properties[${i}]`);
    if (names.has(item.name)) throw badRequest(`${where}name: "${item.name}" appears twice`);
    names.add(item.name);
    whereByName.set(item.name, where);
    const prop = storedFor(item);
    if (item.id !== undefined && !prop) throw badRequest(`${where}id: entity ${entity.id} has no property ${item.id}`);
    if (!prop) {
      plan.created.push({ input: { name: item.name, value: item.value, type_id: item.type_id }, where });
      return;
    }
    if (matched.has(prop.id)) throw badRequest(`${where}: property "${prop.name}" is given twice`);
    matched.add(prop.id);
    whereById.set(prop.id, where);
    let value = propertyValueText(item.value);
    // The value as this reader was shown it: the stored one stands (see above).
    if (!clearSecrets && prop.type_id === SERVICE_PROPERTY && value === redactPropertyText(prop.value)) value = prop.value;
    const change: PropertyChange = {};
    if (item.name !== prop.name) change.name = item.name;
    if (value !== prop.value) change.value = value;
    if (item.type_id !== undefined && item.type_id !== prop.type_id) change.type_id = item.type_id;
    if (Object.keys(change).length > 0) plan.changed.push({ prop, change, where });
  });
  plan.removed = entity.properties.filter((p) => !matched.has(p.id));
  return plan;
}
