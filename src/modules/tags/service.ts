// Tags: named labels that objects and links carry by id. A name is unique; deleting a tag
// takes it off every entity (the store cascades, the catalog follows).
import type { TagRow } from '../../storage/catalog-types.js';
import { type EntityActor, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import type { Catalog } from '../catalog/catalog.js';
import { assertNameFree, findByTextId } from '../catalog/named.js';

export const TAG_RIGHTS = ['manage-objects', 'modify-objects', 'manage-configuration'] as const;

export function createTagsService({ catalog, clock }: { catalog: Catalog; clock: () => number }) {
  const get = (id: string): TagRow => findByTextId(catalog.tags, id, 'tag');
  const nameFree = (name: string, self?: string) => assertNameFree(catalog.tags.values(), name, 'tag', self);

  return {
    list: (): TagRow[] => [...catalog.tags.values()],
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
        const now = clock();
        return { writes: [{ op: 'deleteTag', id: tag.id }, auditWrite(actor.userId, 'delete', 'tag', tag.id, null, tag, null, now)], result: undefined };
      });
    },
  };
}

export type TagsService = ReturnType<typeof createTagsService>;
