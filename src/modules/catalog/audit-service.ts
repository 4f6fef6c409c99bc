// Reading the configuration audit log: by entity (what happened to it) and by user (what they did).
import { AppError } from '../../http/errors.js';
import type { CatalogStore, StoredAuditRecord } from '../../storage/catalog-types.js';
import { type EntityActor, canSee } from './access.js';
import type { Catalog } from './catalog.js';

export interface AuditPage {
  from?: number;
  to?: number;
  limit: number;
  skip: number;
}

export function createAuditService({ catalog, store }: { catalog: Catalog; store: CatalogStore }) {
  return {
    /** Newest first. A deleted entity's history is there for users who see everything. */
    async forEntity(actor: EntityActor, entityId: string, page: AuditPage): Promise<StoredAuditRecord[]> {
      const entity = catalog.entity(entityId);
      const visible = entity ? canSee(actor, entity) : actor.visibility.all;
      if (!visible) throw new AppError('ResourceNotFound', `entity ${entityId} not found`);
      return store.audit({ ...page, entityId });
    },

    async forUser(userId: string, page: AuditPage): Promise<StoredAuditRecord[]> {
      return store.audit({ ...page, userId });
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
