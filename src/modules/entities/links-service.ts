// Creating, changing and deleting links. A link joins two objects the actor can see.
import { badRequest, notFound } from '../../errors.js';
import type { CatalogWrite, LinkRow } from '../../storage/catalog-types.js';
import { type EntityActor, canChange, outsidePermissions, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import { type Catalog, type MemLink, rowOf } from '../catalog/catalog.js';
import { classIdOf, clientDataText, idOf, lookup, newProperties, tagIdsOf } from './entity-input.js';
import { type PropertiesService, createPropertiesService } from './properties-service.js';
import type { PropertyRules } from './property-rules.js';
import type { CreateLinkInput, PatchLinkRequestT } from './schemas.js';

export interface LinksServiceDeps {
  catalog: Catalog;
  rules: PropertyRules;
  /** Replaces properties given with a change (PATCH with `properties`); one of its own when not given. */
  properties?: Pick<PropertiesService, 'replaceWrites'>;
  clock: () => number;
}

export function createLinksService({ catalog, rules, properties: given, clock }: LinksServiceDeps) {
  const properties = given ?? createPropertiesService({ catalog, rules, clock });
  function end(actor: EntityActor, field: 'source' | 'target', value: string | number): string {
    const id = idOf(value);
    if (id === undefined || !catalog.hasObject(id) || !actor.visibility.canRead(id)) throw badRequest(`${field}: unknown object ${value}`);
    if (!actor.visibility.has(id)) throw outsidePermissions(`${field} ${id}`);
    return id;
  }

  function changeable(actor: EntityActor, id: string): MemLink {
    const l = lookup(catalog.link, id);
    if (!l || !canChange(actor, l)) throw notFound(`link ${id}`);
    return l;
  }

  return {
    async create(actor: EntityActor, input: CreateLinkInput): Promise<MemLink> {
      requireAnyRight(actor, 'create-links', 'manage-links');
      return catalog.mutate(() => {
        const now = clock();
        const source = end(actor, 'source', input.source);
        const target = end(actor, 'target', input.target);
        if (source === target) throw badRequest('target: a link joins two different objects');
        const id = catalog.nextId('entities');
        const row: LinkRow = {
          id, name: input.name ?? '', source, target, class_id: classIdOf(catalog, input.class_id), state_id: 1, owner_id: actor.userId,
          client_data: clientDataText(input.client_data), tags: tagIdsOf(catalog, input.tags ?? []), operations: input.operations ?? [],
          created: now, updated: now,
        };
        const props = newProperties(catalog, rules, actor, id, input.properties, now);
        const writes: CatalogWrite[] = [
          { op: 'putLink', row },
          ...props.map((p): CatalogWrite => ({ op: 'putProp', row: p })),
          auditWrite(actor.userId, 'create', 'link', id, id, null, { ...row, properties: props }, now),
        ];
        return { writes, get result() { return catalog.link(id)!; } };
      });
    },

    /** A change; `properties`, when given, replace the link's properties (in the same batch). */
    async update(actor: EntityActor, id: string, input: PatchLinkRequestT): Promise<MemLink> {
      requireAnyRight(actor, 'modify-links', 'manage-links');
      return catalog.mutate(() => {
        const l = changeable(actor, id);
        const now = clock();
        const old = rowOf(l);
        const row: LinkRow = { ...old };
        if (input.class_id !== undefined && classIdOf(catalog, input.class_id) !== l.class_id) {
          throw badRequest(`class_id: the class of a link cannot change (link ${l.id} is of class ${l.class_id ?? 'none'})`);
        }
        if (input.name !== undefined) row.name = input.name;
        if (input.source !== undefined) row.source = end(actor, 'source', input.source);
        if (input.target !== undefined) row.target = end(actor, 'target', input.target);
        if (row.source === row.target) throw badRequest('target: a link joins two different objects');
        if (input.client_data !== undefined) row.client_data = clientDataText(input.client_data);
        if (input.tags !== undefined) row.tags = tagIdsOf(catalog, input.tags);
        if (input.operations !== undefined) row.operations = input.operations;
        const propWrites = input.properties ? properties.replaceWrites(actor, l, input.properties, now) : [];
        if (JSON.stringify(row) === JSON.stringify(old)) return { writes: propWrites, get result() { return catalog.link(l.id)!; } };
        row.updated = now;
        const writes: CatalogWrite[] = [
          { op: 'putLink', row, tags: row.tags.join() !== l.tags.join() },
          auditWrite(actor.userId, 'update', 'link', l.id, l.id, old, row, now),
          ...propWrites,
        ];
        return { writes, get result() { return catalog.link(l.id)!; } };
      });
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      requireAnyRight(actor, 'manage-links');
      return catalog.mutate(() => {
        const l = changeable(actor, id);
        const now = clock();
        return {
          writes: [{ op: 'deleteEntities', ids: [l.id] }, auditWrite(actor.userId, 'delete', 'link', l.id, l.id, l, null, now)],
          result: undefined,
        };
      });
    },
  };
}

export type LinksService = ReturnType<typeof createLinksService>;
