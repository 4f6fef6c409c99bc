// Properties of objects and links: named values with a type. Read-only properties (type 2)
// refuse changes; service properties (type 8) need the right manage-service-properties.
import { badRequest, conflict, notFound } from '../../errors.js';
import type { CatalogWrite, PropRow } from '../../storage/catalog-types.js';
import { type EntityActor, canChange, outsidePermissions } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import { DEFAULT_PROPERTY_TYPE, READ_ONLY_PROPERTY, checkPropertyType, propertyValueText } from './entity-input.js';
import { redactProperties } from '../../core/secrets/check-secrets.js';
import type { EffectiveProp } from '../../core/classes/effective.js';
import { readsSecrets } from '../../core/secrets/mask.js';
import type { PropertyRules } from './property-rules.js';
import type { PropertyChange } from './property-types.js';
import { replacementOf, withoutInherited } from './property-replace.js';
import type { PropertyInputT, PropertyReplaceItemT } from './schemas.js';

export type { PropertyChange };

export function createPropertiesService({ catalog, rules, clock }: { catalog: Catalog; rules: PropertyRules; clock: () => number }) {
  const rightsFor = rules.rightsFor;

  function mayChange(actor: EntityActor, entity: MemEntity): void {
    if (!canChange(actor, entity)) throw outsidePermissions(`entity ${entity.id}`);
  }

  /** A property as the catalog holds it, after a change. */
  const propertyOf = (entityId: string, propId: string): PropRow => catalog.entity(entityId)!.properties.find((p) => p.id === propId)!;

  /** The entity as the catalog holds it now (it may have changed while a change waited). */
  function fresh(entity: MemEntity): MemEntity {
    const now = catalog.entity(entity.id);
    if (!now) throw notFound(`entity ${entity.id}`);
    return now;
  }

  function propOf(entity: MemEntity, propId: string): PropRow {
    const prop = entity.properties.find((p) => p.id === propId);
    if (!prop) throw notFound(`property ${propId} of entity ${entity.id}`);
    return prop;
  }

  /**
   * The writes that create a property or change the one of that name (bulk
   * `properties.createOrModify`, POST of an existing name is refused instead).
   */
  function createOrModifyWrites(actor: EntityActor, entity: MemEntity, input: PropertyInputT, now: number, where = ''): CatalogWrite[] {
    const existing = entity.properties.find((p) => p.name === input.name);
    if (!existing) return createWrites(actor, entity, input, now, where);
    return changeWrites(actor, entity, existing, { value: input.value, type_id: input.type_id }, now, where);
  }

  /** `alone` false: one of several writes, validated together by the caller (replaceWrites). */
  function createWrites(actor: EntityActor, entity: MemEntity, input: PropertyInputT, now: number, where = '', alone = true): CatalogWrite[] {
    const type_id = checkPropertyType(input.type_id ?? DEFAULT_PROPERTY_TYPE, where);
    rightsFor(actor, type_id);
    if (alone && entity.properties.some((p) => p.name === input.name)) throw conflict(`${where}property "${input.name}" already exists on entity ${entity.id}`);
    const row: PropRow = { id: catalog.nextId('props'), entity_id: entity.id, name: input.name, value: propertyValueText(input.value), type_id, created: now, updated: now };
    if (alone) rules.validate([row], [...entity.properties, row], () => where);
    return [{ op: 'putProp', row }, auditWrite(actor.userId, 'create', 'property', row.id, entity.id, null, row, now)];
  }

  function changeWrites(actor: EntityActor, entity: MemEntity, prop: PropRow, change: PropertyChange, now: number, where = '', alone = true): CatalogWrite[] {
    rightsFor(actor, prop.type_id);
    if (prop.type_id === READ_ONLY_PROPERTY) throw conflict(`${where}property "${prop.name}" of entity ${entity.id} is read-only`);
    const row: PropRow = { ...prop };
    if (change.name !== undefined && change.name !== prop.name) {
      if (alone && entity.properties.some((p) => p.name === change.name)) throw conflict(`${where}property "${change.name}" already exists on entity ${entity.id}`);
      row.name = change.name;
    }
    if (change.value !== undefined) row.value = propertyValueText(change.value);
    if (change.type_id !== undefined) {
      row.type_id = checkPropertyType(change.type_id, where);
      rightsFor(actor, row.type_id);
    }
    if (row.name === prop.name && row.value === prop.value && row.type_id === prop.type_id) return [];
    if (alone) rules.validate([row], entity.properties.map((p) => (p.id === row.id ? row : p)), () => where);
    row.updated = now;
    return [{ op: 'putProp', row }, auditWrite(actor.userId, 'update', 'property', row.id, entity.id, prop, row, now)];
  }

  /**
   * The writes that make `incoming` the entity's properties (PATCH of an object or link with
   * `properties`): left-out ones deleted, changed ones changed, new ones created, each under the
   * rules of the props routes; unchanged ones cost no right. `keepMissing` leaves out the
   * deletes (a discovery agent reporting an object again adds and changes, never removes).
   */
  function replaceWrites(actor: EntityActor, entity: MemEntity, incoming: readonly PropertyReplaceItemT[], now: number, keepMissing = false): CatalogWrite[] {
    const inherited = catalog.effectiveProps(entity).filter((p) => p.inherited);
    const plan = replacementOf(entity, withoutInherited(incoming, inherited, readsSecrets(actor.rights)), readsSecrets(actor.rights));
    const writes: CatalogWrite[] = [];
    if (!keepMissing) {
      for (const prop of plan.removed) {
        rightsFor(actor, prop.type_id);
        if (prop.type_id === READ_ONLY_PROPERTY) throw conflict(`properties: property "${prop.name}" of entity ${entity.id} is read-only and cannot be removed`);
        writes.push({ op: 'deleteProp', id: prop.id, entityId: entity.id }, auditWrite(actor.userId, 'delete', 'property', prop.id, entity.id, prop, null, now));
      }
    }
    // Changes and creations are checked against the properties as they will be.
    const removed = new Set(keepMissing ? [] : plan.removed.map((p) => p.id));
    const after: MemEntity = { ...entity, properties: entity.properties.filter((p) => !removed.has(p.id)) } as MemEntity;
    const rows: PropRow[] = [];
    for (const { prop, change, where } of plan.changed) {
      const w = changeWrites(actor, after, prop, change, now, where, false);
      if (w.length > 0) rows.push((w[0] as { row: PropRow }).row);
      writes.push(...w);
    }
    for (const { input, where } of plan.created) {
      const w = createWrites(actor, after, input, now, where, false);
      rows.push((w[0] as { row: PropRow }).row);
      writes.push(...w);
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const final = [...after.properties.map((p) => byId.get(p.id) ?? p), ...rows.filter((r) => !after.properties.some((p) => p.id === r.id))];
    const names = new Set<string>();
    for (const p of final) {
      if (names.has(p.name)) throw conflict(`properties: property "${p.name}" would exist twice on entity ${entity.id}`);
      names.add(p.name);
    }
    rules.validate(rows, final, (p) => plan.whereOf(p.id, p.name));
    return writes;
  }

  return {
    createOrModifyWrites,
    replaceWrites,

    /**
     * The entity's properties; check secrets hidden from those without manage-service-properties.
     * `effective`: with those it inherits from its class (marked), as its record shows them.
     */
    list(actor: EntityActor, entity: MemEntity, effective = false): EffectiveProp[] {
      const props = effective ? catalog.effectiveProps(entity) : entity.properties;
      return readsSecrets(actor.rights) ? [...props] : redactProperties(props);
    },

    async create(actor: EntityActor, entity: MemEntity, input: PropertyInputT): Promise<PropRow> {
      mayChange(actor, entity);
      return catalog.mutate(() => {
        const writes = createWrites(actor, fresh(entity), input, clock());
        const id = (writes[0] as { row: PropRow }).row.id;
        return { writes, get result() { return propertyOf(entity.id, id); } };
      });
    },

    async update(actor: EntityActor, entity: MemEntity, propId: string, change: PropertyChange): Promise<PropRow> {
      mayChange(actor, entity);
      if (change.name !== undefined && change.name === '') throw badRequest('name: must not be empty');
      return catalog.mutate(() => {
        const current = fresh(entity);
        const prop = propOf(current, propId);
        return { writes: changeWrites(actor, current, prop, change, clock()), get result() { return propertyOf(entity.id, prop.id); } };
      });
    },

    async delete(actor: EntityActor, entity: MemEntity, propId: string): Promise<void> {
      mayChange(actor, entity);
      return catalog.mutate(() => {
        const prop = propOf(fresh(entity), propId);
        rightsFor(actor, prop.type_id);
        if (prop.type_id === READ_ONLY_PROPERTY) throw conflict(`property "${prop.name}" of entity ${entity.id} is read-only`);
        const now = clock();
        return { writes: [{ op: 'deleteProp', id: prop.id, entityId: entity.id }, auditWrite(actor.userId, 'delete', 'property', prop.id, entity.id, prop, null, now)], result: undefined };
      });
    },
  };
}

export type PropertiesService = ReturnType<typeof createPropertiesService>;
