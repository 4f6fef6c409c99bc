// Object classes (host, service, network device, ...): a sensible built-in set, more by users
// with manage-classes. A class in use by an entity, or built in, cannot be deleted.
import { conflict } from '../../errors.js';
import type { ClassRow } from '../../storage/catalog-types.js';
import { type EntityActor, canSee, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import type { Catalog } from '../catalog/catalog.js';
import { assertNameFree, findByTextId } from '../catalog/named.js';

export interface ClassInput {
  name?: string;
  description?: string;
  icon?: string;
}

const view = ({ builtIn, ...c }: ClassRow) => ({ ...c, builtIn });

export function createClassesService({ catalog, clock }: { catalog: Catalog; clock: () => number }) {
  const get = (id: string): ClassRow => findByTextId(catalog.classById, id, 'class');
  const nameFree = (name: string, self?: string) => assertNameFree(catalog.classList(), name, 'class', self);

  return {
    list: () => catalog.classList().map(view),
    get: (id: string) => view(get(id)),

    async create(actor: EntityActor, input: Required<Pick<ClassInput, 'name'>> & ClassInput) {
      requireAnyRight(actor, 'manage-classes');
      return catalog.mutate(() => {
        nameFree(input.name);
        const now = clock();
        const row: ClassRow = { id: catalog.nextId('classes'), name: input.name, description: input.description ?? '', icon: input.icon ?? '', builtIn: false, created: now, updated: now };
        return { writes: [{ op: 'putClass', row }, auditWrite(actor.userId, 'create', 'class', row.id, null, null, row, now)], result: view(row) };
      });
    },

    async update(actor: EntityActor, id: string, input: ClassInput) {
      requireAnyRight(actor, 'manage-classes');
      return catalog.mutate(() => {
        const old = get(id);
        if (input.name !== undefined) nameFree(input.name, old.id);
        const now = clock();
        const row: ClassRow = { ...old, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)), updated: now };
        return { writes: [{ op: 'putClass', row }, auditWrite(actor.userId, 'update', 'class', row.id, null, old, row, now)], result: view(row) };
      });
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      requireAnyRight(actor, 'manage-classes');
      return catalog.mutate(() => {
        const row = get(id);
        if (row.builtIn) throw conflict(`class ${row.id} (${row.name}) is built in`);
        // A user the actor cannot see is not named (its id would leak).
        const users = catalog.usesOfClass(row.id);
        const shown = users.find((e) => canSee(actor, e));
        if (shown) throw conflict(`class ${row.id} is used by ${shown.entityType === 1 ? 'object' : 'link'} ${shown.id}`);
        if (users.length > 0) throw conflict(`class ${row.id} is in use`);
        const now = clock();
        return { writes: [{ op: 'deleteClass', id: row.id }, auditWrite(actor.userId, 'delete', 'class', row.id, null, row, null, now)], result: undefined };
      });
    },
  };
}

export type ClassesService = ReturnType<typeof createClassesService>;
