// GET/PUT/DELETE of an entity's `dependencies` document. The ids it names must be entities the
// writer can see (400 otherwise, as for any unknown entity); a reader is shown only the ones
// they can see, and a writer who cannot see some that are stored keeps them (they were put
// there by someone who could). Entities deleted since drop out when read. Stored through the
// settings service: same rights as state conditions, audited, validated there for shape.
import { badRequest } from '../../errors.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { SettingsService } from '../entities/settings-service.js';
import { readDoc, type DependenciesDoc } from './dependencies-doc.js';

export interface DependenciesInput {
  dependsOn?: Array<string | number>;
  parents?: boolean;
  minLevel?: string | number | null;
}

export function createDependenciesService({ catalog, settings }: { catalog: Catalog; settings: SettingsService }) {
  const stored = (entity: MemEntity): DependenciesDoc => readDoc(catalog.setting(entity.id, 'dependencies')?.value) ?? { dependsOn: [], parents: true };

  function get(actor: EntityActor, entity: MemEntity): DependenciesDoc {
    const doc = stored(entity);
    const dependsOn = doc.dependsOn.filter((id) => {
      const e = catalog.entity(id);
      return e !== undefined && canSee(actor, e);
    });
    return { ...doc, dependsOn };
  }

  return {
    get,

    async put(actor: EntityActor, entity: MemEntity, input: DependenciesInput): Promise<DependenciesDoc> {
      const given = (input.dependsOn ?? []).map(String);
      given.forEach((id, i) => {
        const e = catalog.entity(id.trim());
        if (!e || !canSee(actor, e)) throw badRequest(`dependsOn[${i}]: unknown entity ${id}`);
        if (e.id === entity.id) throw badRequest(`dependsOn[${i}]: an entity cannot depend on itself`);
      });
      const hiddenKept = stored(entity).dependsOn.filter((id) => {
        const e = catalog.entity(id);
        return e !== undefined && !canSee(actor, e);
      });
      const doc: Record<string, unknown> = { dependsOn: [...given, ...hiddenKept], parents: input.parents ?? true };
      if (input.minLevel !== undefined && input.minLevel !== null) doc.minLevel = input.minLevel;
      await settings.put(actor, entity, 'dependencies', [doc]);
      return get(actor, entity);
    },

    delete: (actor: EntityActor, entity: MemEntity) => settings.delete(actor, entity, 'dependencies'),
  };
}
export type DependenciesService = ReturnType<typeof createDependenciesService>;
