// Tags: named labels that objects and links carry by id. A name is unique; deleting a tag
// takes it off every entity (the store cascades, the catalog follows). Renaming or deleting a
// tag changes every entity that carries it, so a user restricted by objectPermissions may do
// so only when each of them is one it may change.
import type { TagRow } from '../../storage/catalog-types.js';
import { conflict } from '../../errors.js';
import { type EntityActor, canChange, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import type { Catalog } from '../catalog/catalog.js';
import { assertNameFree, findByTextId } from '../catalog/named.js';

export const TAG_RIGHTS = ['manage-objects', 'modify-objects', 'manage-configuration'] as const;

/** 409 like a class in use: the tag's carriers, not the caller's rights, forbid the change. */
const usedOutside = (tag: TagRow) =>
  conflict(`tag "${tag.name}" is also on entities you cannot change (outside your objectPermissions); a user who may change them can rename or delete it`);

export function createTagsService({ catalog, clock }: { catalog: Catalog; clock: () => number }) {
  const get = (id: string): TagRow => findByTextId(catalog.tag, id, 'tag');
  const nameFree = (name: string, self?: string) => assertNameFree(catalog.tagList(), name, 'tag', self);

  /**
   * Refuses a restricted actor when the tag is on an entity it may not change. The message
   * names the tag only: which hidden entities carry it is not the actor's to learn.
   */
  function assertAllChangeable(actor: EntityActor, tag: TagRow): void {
    if (actor.visibility.all) return;
    for (const entity of catalog.usesOfTag(tag.id)) if (!canChange(actor, entity)) throw usedOutside(tag);
  }

  return {
    list: (): TagRow[] => catalog.tagList(),
    get,

    async create(actor: EntityActor, name: string): Promise<TagRow> {
      requireAnyRight(actor, ...TAG_RIGHTS);
      return catalog.mutate(() => {
        nameFree(name);
        const now = clock();
        const row: TagRow = { id: catalog.nextId('tags'), name, created: now, updated: now };
        return { writes: [{ op: 'putTag', row }, auditWrite(actor.userId, 'create', 'tag', row.id, null, null, row, now)], result: row };
      });
    },

    async rename(actor: EntityActor, id: string, name: string): Promise<TagRow> {
      requireAnyRight(actor, ...TAG_RIGHTS);
      return catalog.mutate(() => {
        const tag = get(id);
        if (tag.name === name) return { writes: [], result: tag };
        assertAllChangeable(actor, tag);
        nameFree(name, tag.id);
        const now = clock();
        const row: TagRow = { ...tag, name, updated: now };
        return { writes: [{ op: 'putTag', row }, auditWrite(actor.userId, 'update', 'tag', row.id, null, tag, row, now)], result: row };
      });
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      requireAnyRight(actor, ...TAG_RIGHTS);
      return catalog.mutate(() => {
        const tag = get(id);
        // Deleting takes the tag off every carrier: one the actor cannot change (hidden) stays as it is.
        assertAllChangeable(actor, tag);
        const now = clock();
        return { writes: [{ op: 'deleteTag', id: tag.id }, auditWrite(actor.userId, 'delete', 'tag', tag.id, null, tag, null, now)], result: undefined };
      });
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
