// Creating, changing and deleting objects. Reads are in entity-queries.ts.
import { ROOT_ID } from '../../core/entity-graph.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import type { CatalogWrite, ObjectRow } from '../../storage/catalog-types.js';
import { replaceVisible } from '../../core/visibility.js';
import { type EntityActor, canChange, canSee, outsidePermissions as outside, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import { type Catalog, type MemObject, rowOf } from '../catalog/catalog.js';
import { classIdOf, clientDataText, idList, lookup, newProperties, tagIdsOf } from './entity-input.js';
import { type PropertiesService, createPropertiesService } from './properties-service.js';
import type { PropertyRules } from './property-rules.js';
import type { CreateObjectInput, PatchObjectInput, PatchObjectRequestT } from './schemas.js';

const discoveryInUse = (discoveryId: string) => conflict(`discovery_id "${discoveryId}" is in use by another object`);

export interface ObjectsServiceDeps {
  catalog: Catalog;
  rules: PropertyRules;
  /** Replaces properties given with a change (PATCH with `properties`); one of its own when not given. */
  properties?: Pick<PropertiesService, 'replaceWrites'>;
  clock: () => number;
}

export function createObjectsService({ catalog, rules, properties: given, clock }: ObjectsServiceDeps) {
  const properties = given ?? createPropertiesService({ catalog, rules, clock });
  /** An object the actor may change; hidden ones are absent (404), a readable root is 403. */
  function changeable(actor: EntityActor, id: string): MemObject {
    const o = lookup(catalog.object, id);
    if (!o || !actor.visibility.canRead(o.id)) throw notFound(`object ${id}`);
    if (!canChange(actor, o)) throw outside(`object ${id}`);
    return o;
  }

  /**
   * The parents `value` gives an object that has `current` ones. Each given id exists and is
   * visible (a hidden one reads as unknown, like an absent one); one the object does not have
   * yet must also take a child from this actor. The given list replaces only the parents the
   * actor sees: those it cannot see stay (a restricted user is only ever shown part of the list).
   */
  function parentsOf(actor: EntityActor, value: NonNullable<CreateObjectInput['parent_id']>, current: readonly string[] = []): string[] {
    const ids = idList('parent_id', value);
    if (ids.length === 0) throw badRequest('parent_id: an object needs at least one parent');
    for (const p of ids) {
      if (!catalog.hasObject(p) || !actor.visibility.canRead(p)) throw badRequest(`parent_id: unknown object ${p}`);
      if (!current.includes(p) && !actor.visibility.has(p)) throw outside(`parent ${p}`);
    }
    return replaceVisible(actor.visibility, current, ids);
  }

  /** A discovery id is unique; a holder the actor cannot see is not named (its id would leak). */
  function discoveryTaken(actor: EntityActor, discoveryId: string | null, self: string | undefined): void {
    if (discoveryId === null) return;
    const holder = catalog.discovered(discoveryId);
    if (holder === undefined || holder === self) return;
    if (!actor.visibility.canRead(holder)) throw discoveryInUse(discoveryId);
    throw conflict(`discovery_id "${discoveryId}" belongs to object ${holder}`);
  }

  /**
   * Deleting must not remove what the actor cannot see: a link to a hidden object (a link cannot
   * outlive its end) or a hidden descendant left without parents. Refused whole, naming neither.
   */
  function refuseHiddenCascade(actor: EntityActor, o: MemObject, gone: { objects: string[]; links: string[] }): void {
    if (actor.visibility.all) return;
    const hidden = gone.objects.some((c) => !actor.visibility.has(c)) || gone.links.some((l) => !canSee(actor, catalog.link(l)!));
    if (hidden) throw conflict(`object ${o.id} has links or descendants you cannot see; deleting it would remove them`);
  }

  /** The writes of a change to one object (shared with bulk operations). */
  function changeWrites(actor: EntityActor, o: MemObject, input: PatchObjectInput, now: number): { row: ObjectRow; writes: CatalogWrite[] } | undefined {
    const row: ObjectRow = rowOf(o);
    if (input.class_id !== undefined && classIdOf(catalog, input.class_id) !== o.class_id) {
      throw badRequest(`class_id: the class of an object cannot change (object ${o.id} is of class ${o.class_id ?? 'none'})`);
    }
    if (input.name !== undefined) row.name = input.name;
    let parentsChanged = false;
    if (input.parent_id !== undefined) {
      if (o.id === ROOT_ID) throw badRequest('parent_id: the root object has no parents');
      const parents = parentsOf(actor, input.parent_id, o.parent_id);
      if (catalog.wouldCreateCycle(o.id, parents)) throw badRequest(`parent_id: object ${o.id} would become its own ancestor`);
      parentsChanged = parents.join() !== o.parent_id.join();
      row.parent_id = parents;
    }
    let tagsChanged = false;
    if (input.tags !== undefined) {
      row.tags = tagIdsOf(catalog, input.tags);
      tagsChanged = row.tags.join() !== o.tags.join();
    }
    if (input.client_data !== undefined) row.client_data = clientDataText(input.client_data);
    if (input.discovery_id !== undefined) {
      row.discovery_id = input.discovery_id === '' ? null : input.discovery_id;
      discoveryTaken(actor, row.discovery_id, o.id);
    }
    const same = row.name === o.name && !parentsChanged && !tagsChanged && row.client_data === o.client_data && row.discovery_id === o.discovery_id;
    if (same) return undefined;
    row.updated = now;
    return {
      row,
      writes: [
        { op: 'putObject', row, parents: parentsChanged, tags: tagsChanged },
        auditWrite(actor.userId, 'update', 'object', o.id, o.id, o, row, now),
      ],
    };
  }

  return {
    changeWrites,

    async create(actor: EntityActor, input: CreateObjectInput): Promise<{ object: MemObject; created: boolean }> {
      requireAnyRight(actor, 'create-objects', 'manage-objects');
      return catalog.mutate(() => {
        const now = clock();
        const known = input.discovery_id ? catalog.discovered(input.discovery_id) : undefined;
        // A holder the actor cannot see is as absent, but the id stays unique: refused unnamed.
        if (known !== undefined && !actor.visibility.canRead(known)) throw discoveryInUse(input.discovery_id!);
        if (known !== undefined) {
          // A known discovery_id: a discovery agent reports the object again, so it is updated.
          requireAnyRight(actor, 'modify-objects', 'manage-objects');
          const o = changeable(actor, known);
          const { properties: reported, ...patch } = input;
          const change = changeWrites(actor, o, patch, now);
          // Properties reported again are added and changed (under the props routes' rules),
          // never removed: what a discovery agent does not report may have been added by hand.
          const propWrites = reported ? properties.replaceWrites(actor, o, reported, now, true) : [];
          const result = () => ({ object: catalog.object(o.id)!, created: false });
          return { writes: [...(change?.writes ?? []), ...propWrites], get result() { return result(); } };
        }
        // No parent, or an empty list, means the root (on create only: a PATCH must leave one).
        const given = input.parent_id;
        const parents = parentsOf(actor, given === undefined || (Array.isArray(given) && given.length === 0) ? ROOT_ID : given);
        const id = catalog.nextId('entities');
        const row: ObjectRow = {
          id, name: input.name, class_id: classIdOf(catalog, input.class_id), state_id: 1, owner_id: actor.userId,
          client_data: clientDataText(input.client_data), discovery_id: input.discovery_id ?? null, parent_id: parents,
          tags: tagIdsOf(catalog, input.tags ?? []), created: now, updated: now,
        };
        discoveryTaken(actor, row.discovery_id, undefined);
        const props = newProperties(catalog, rules, actor, id, input.properties, now);
        const writes: CatalogWrite[] = [
          { op: 'putObject', row },
          ...props.map((p): CatalogWrite => ({ op: 'putProp', row: p })),
          auditWrite(actor.userId, 'create', 'object', id, id, null, { ...row, properties: props }, now),
        ];
        return { writes, get result() { return { object: catalog.object(id)!, created: true }; } };
      });
    },

    /** A change; `properties`, when given, replace the object's properties (in the same batch). */
    async update(actor: EntityActor, id: string, input: PatchObjectRequestT): Promise<MemObject> {
      requireAnyRight(actor, 'modify-objects', 'manage-objects');
      return catalog.mutate(() => {
        const o = changeable(actor, id);
        const now = clock();
        const { properties: replacement, ...patch } = input;
        const change = changeWrites(actor, o, patch, now);
        const propWrites = replacement ? properties.replaceWrites(actor, o, replacement, now) : [];
        return { writes: [...(change?.writes ?? []), ...propWrites], get result() { return catalog.object(o.id)!; } };
      });
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      requireAnyRight(actor, 'delete-objects', 'manage-objects');
      return catalog.mutate(() => {
        const o = changeable(actor, id);
        if (o.id === ROOT_ID) throw conflict('the root object cannot be deleted');
        const gone = catalog.cascade([o.id]);
        refuseHiddenCascade(actor, o, gone);
        const now = clock();
        const writes: CatalogWrite[] = [{ op: 'deleteEntities', ids: [...gone.links, ...gone.objects] }];
        for (const l of gone.links) writes.push(auditWrite(actor.userId, 'delete', 'link', l, l, catalog.link(l), null, now));
        for (const c of gone.objects) writes.push(auditWrite(actor.userId, 'delete', 'object', c, c, catalog.object(c), null, now));
        return { writes, result: undefined };
      });
    },
  };
}

export type ObjectsService = ReturnType<typeof createObjectsService>;

