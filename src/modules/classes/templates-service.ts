// Class templates: the state conditions, incident conditions and properties a class holds for
// its entities. An entity without its own document of a kind follows its class's; its own
// properties win over the class's of the same name (core/classes/effective.ts). Changes apply
// to every entity of the class at once: the engine and the indexes follow the catalog's
// changes. Writes need manage-classes (service properties, which hold check secrets, also
// manage-service-properties); anyone who may read classes reads them, secrets masked as on
// entities.
import { redactProperty } from '../../core/secrets/check-secrets.js';
import { readsSecrets } from '../../core/secrets/mask.js';
import { conflict, notFound } from '../../errors.js';
import type { CatalogWrite, ClassPropRow, ClassRow, ClassSettingKind, PropRow } from '../../storage/catalog-types.js';
import { type EntityActor, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import type { Catalog } from '../catalog/catalog.js';
import { findByTextId } from '../catalog/named.js';
import { DEFAULT_PROPERTY_TYPE, SERVICE_PROPERTY, checkPropertyType, propertyValueText } from '../entities/entity-input.js';
import type { PropertyRules } from '../entities/property-rules.js';
import type { PropertyChange } from '../entities/property-types.js';
import type { PropertyInputT } from '../entities/schemas.js';
import { type ClassPropItem, classPropsPlan } from './class-props-plan.js';

export function createClassTemplatesService({ catalog, rules, validate, clock }: {
  catalog: Catalog;
  rules: PropertyRules;
  /** The entities' settings validator (settings-service.ts): one document shape for both. */
  validate: (kind: ClassSettingKind, value: unknown) => unknown[];
  clock: () => number;
}) {
  const classOf = (id: string): ClassRow => findByTextId(catalog.classById, id, 'class');

  /** Service properties hold check secrets: writing one also needs manage-service-properties. */
  function mayWrite(actor: EntityActor, ...typeIds: number[]): void {
    requireAnyRight(actor, 'manage-classes');
    if (typeIds.includes(SERVICE_PROPERTY)) requireAnyRight(actor, 'manage-service-properties');
  }

  const propView = (actor: EntityActor, p: ClassPropRow): ClassPropRow => (readsSecrets(actor.rights) ? p : redactProperty(p));
  const asProp = (p: ClassPropRow): PropRow => ({ ...p, entity_id: p.class_id });
  /** Each new or changed check is valid, and no two checks of the class write the same metrics. */
  function validateProps(changed: readonly ClassPropRow[], all: readonly ClassPropRow[], where: (id: string) => string): void {
    rules.validate(changed.map(asProp), all.map(asProp), (p) => where(p.id));
  }

  function propOf(cls: ClassRow, propId: string): ClassPropRow {
    const prop = catalog.classPropsOf(cls.id).find((p) => p.id === propId);
    if (!prop) throw notFound(`property ${propId} of class ${cls.id}`);
    return prop;
  }

  const resource = (kind: ClassSettingKind) => `class.${kind}` as const;

  return {
    /** The class's own document of a kind ([] when it has none). */
    getSetting(id: string, kind: ClassSettingKind): unknown[] {
      return catalog.classSetting(classOf(id).id, kind)?.value ?? [];
    },

    async putSetting(actor: EntityActor, id: string, kind: ClassSettingKind, value: unknown): Promise<unknown[]> {
      mayWrite(actor);
      const doc = validate(kind, value);
      return catalog.mutate(() => {
        const cls = classOf(id);
        const before = catalog.classSetting(cls.id, kind)?.value ?? null;
        if (JSON.stringify(before) === JSON.stringify(doc)) return { writes: [], result: doc };
        const now = clock();
        return {
          writes: [
            { op: 'putClassSetting', row: { class_id: cls.id, kind, value: doc, updated: now } },
            auditWrite(actor.userId, before === null ? 'create' : 'update', resource(kind), cls.id, null, before, doc, now),
          ],
          result: doc,
        };
      });
    },

    async deleteSetting(actor: EntityActor, id: string, kind: ClassSettingKind): Promise<void> {
      mayWrite(actor);
      return catalog.mutate(() => {
        const cls = classOf(id);
        const before = catalog.classSetting(cls.id, kind)?.value;
        if (before === undefined) return { writes: [], result: undefined };
        const now = clock();
        return {
          writes: [{ op: 'deleteClassSetting', classId: cls.id, kind }, auditWrite(actor.userId, 'delete', resource(kind), cls.id, null, before, null, now)],
          result: undefined,
        };
      });
    },

    listProps(actor: EntityActor, id: string): ClassPropRow[] {
      return catalog.classPropsOf(classOf(id).id).map((p) => propView(actor, p));
    },

    /** Makes `items` the class's properties: left-out ones deleted, changed ones changed, new names created. */
    async replaceProps(actor: EntityActor, id: string, items: readonly ClassPropItem[]): Promise<ClassPropRow[]> {
      requireAnyRight(actor, 'manage-classes');
      return catalog.mutate(() => {
        const cls = classOf(id);
        const stored = catalog.classPropsOf(cls.id);
        const plan = classPropsPlan(stored, items, readsSecrets(actor.rights));
        const now = clock();
        const writes: CatalogWrite[] = [];
        // Deletes, then changes, then creations: a name a change gives up is free for a creation.
        for (const p of plan.removed) {
          mayWrite(actor, p.type_id);
          writes.push({ op: 'deleteClassProp', id: p.id, classId: cls.id }, auditWrite(actor.userId, 'delete', 'class.property', p.id, null, p, null, now));
        }
        const rows: ClassPropRow[] = [];
        for (const { before, after } of plan.changed) {
          mayWrite(actor, before.type_id, after.type_id);
          const row = { ...after, updated: now };
          rows.push(row);
          writes.push({ op: 'putClassProp', row }, auditWrite(actor.userId, 'update', 'class.property', row.id, null, before, row, now));
        }
        for (const c of plan.created) {
          mayWrite(actor, c.type_id);
          const row: ClassPropRow = { id: catalog.nextId('props'), class_id: cls.id, name: c.name, value: c.value, type_id: c.type_id, created: now, updated: now };
          plan.whereOf.set(row.id, c.where);
          rows.push(row);
          writes.push({ op: 'putClassProp', row }, auditWrite(actor.userId, 'create', 'class.property', row.id, null, null, row, now));
        }
        const removed = new Set(plan.removed.map((p) => p.id));
        const changed = new Map(rows.map((r) => [r.id, r]));
        const final = [...stored.filter((p) => !removed.has(p.id)).map((p) => changed.get(p.id) ?? p), ...rows.filter((r) => !stored.some((p) => p.id === r.id))];
        validateProps(rows, final, (pid) => plan.whereOf.get(pid) ?? '');
        return { writes, get result() { return catalog.classPropsOf(cls.id).map((p) => propView(actor, p)); } };
      });
    },

    async createProp(actor: EntityActor, id: string, input: PropertyInputT): Promise<ClassPropRow> {
      const type_id = checkPropertyType(input.type_id ?? DEFAULT_PROPERTY_TYPE, '');
      mayWrite(actor, type_id);
      return catalog.mutate(() => {
        const cls = classOf(id);
        const stored = catalog.classPropsOf(cls.id);
        if (stored.some((p) => p.name === input.name)) throw conflict(`property "${input.name}" already exists on class ${cls.id}`);
        const now = clock();
        const row: ClassPropRow = { id: catalog.nextId('props'), class_id: cls.id, name: input.name, value: propertyValueText(input.value), type_id, created: now, updated: now };
        validateProps([row], [...stored, row], () => '');
        return { writes: [{ op: 'putClassProp', row }, auditWrite(actor.userId, 'create', 'class.property', row.id, null, null, row, now)], result: propView(actor, row) };
      });
    },

    async updateProp(actor: EntityActor, id: string, propId: string, change: PropertyChange): Promise<ClassPropRow> {
      requireAnyRight(actor, 'manage-classes');
      return catalog.mutate(() => {
        const cls = classOf(id);
        const before = propOf(cls, propId);
        const stored = catalog.classPropsOf(cls.id);
        const after: ClassPropRow = { ...before };
        if (change.name !== undefined && change.name !== before.name) {
          if (stored.some((p) => p.name === change.name)) throw conflict(`property "${change.name}" already exists on class ${cls.id}`);
          after.name = change.name;
        }
        if (change.value !== undefined) after.value = propertyValueText(change.value);
        if (change.type_id !== undefined) after.type_id = checkPropertyType(change.type_id, '');
        mayWrite(actor, before.type_id, after.type_id);
        if (after.name === before.name && after.value === before.value && after.type_id === before.type_id) return { writes: [], result: propView(actor, before) };
        after.updated = clock();
        validateProps([after], stored.map((p) => (p.id === after.id ? after : p)), () => '');
        return {
          writes: [{ op: 'putClassProp', row: after }, auditWrite(actor.userId, 'update', 'class.property', after.id, null, before, after, after.updated)],
          result: propView(actor, after),
        };
      });
    },

    async deleteProp(actor: EntityActor, id: string, propId: string): Promise<void> {
      requireAnyRight(actor, 'manage-classes');
      return catalog.mutate(() => {
        const cls = classOf(id);
        const prop = propOf(cls, propId);
        mayWrite(actor, prop.type_id);
        const now = clock();
        return { writes: [{ op: 'deleteClassProp', id: prop.id, classId: cls.id }, auditWrite(actor.userId, 'delete', 'class.property', prop.id, null, prop, null, now)], result: undefined };
      });
    },
  };
}

export type ClassTemplatesService = ReturnType<typeof createClassTemplatesService>;

/**
 * The incident level guard for class documents (incident levels service `guardDeletion`): a
 * level a class's incident condition raises stays, as one an entity's does.
 */
export function classLevelGuard(catalog: Catalog) {
  return (levelId: string): string | undefined => {
    for (const s of catalog.classSettingsOfKind('incidentConditions')) {
      if ((s.value as Array<{ state?: unknown }>).some((c) => c.state === levelId)) return `an incident condition of class ${s.class_id} raises it`;
    }
    return undefined;
  };
}
