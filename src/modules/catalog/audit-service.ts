// Reading the configuration audit log: by entity (what happened to it) and by user (what they
// did), each record as the reader may see it (audit-view.ts).
import { AppError } from '../../errors.js';
import type { CatalogStore, StoredAuditRecord } from '../../storage/catalog-types.js';
import { type EntityActor, canSee } from './access.js';
import { auditView, auditVisible } from './audit-view.js';
import type { Catalog } from './catalog.js';

export interface AuditPage {
  from?: number;
  to?: number;
  limit: number;
  skip: number;
}

/** Records read per store query while a restricted reader's page is filled. */
const BATCH = 500;
/**
 * Records a restricted reader's page may pass over (hidden ones) before it is answered short:
 * a user log mostly about entities the reader cannot see must not scan the table per request.
 */
export const MAX_SCANNED = 20_000;

export function createAuditService({ catalog, store }: { catalog: Catalog; store: CatalogStore }) {
  /**
   * A page of the records the actor may see. For a reader who sees everything that is the
   * store's page; otherwise hidden records are passed over, so skip and limit count what the
   * reader is shown.
   */
  async function visiblePage(actor: EntityActor, query: { entityId?: string; userId?: string }, page: AuditPage): Promise<StoredAuditRecord[]> {
    if (actor.visibility.all) return (await store.audit({ ...query, ...page })).map((r) => auditView(actor, r));
    const out: StoredAuditRecord[] = [];
    let toSkip = page.skip;
    for (let offset = 0; out.length < page.limit && offset < MAX_SCANNED; offset += BATCH) {
      const batch = await store.audit({ ...query, from: page.from, to: page.to, limit: BATCH, skip: offset });
      for (const r of batch) {
        if (!auditVisible(actor, catalog, r)) continue;
        if (toSkip > 0) toSkip--;
        else if (out.length < page.limit) out.push(auditView(actor, r));
      }
      if (batch.length < BATCH) break;
    }
    return out;
  }

  return {
    /** Newest first. A deleted entity's history is there for users who see everything. */
    async forEntity(actor: EntityActor, entityId: string, page: AuditPage): Promise<StoredAuditRecord[]> {
      const entity = catalog.entity(entityId);
      const visible = entity ? canSee(actor, entity) : actor.visibility.all;
      if (!visible) throw new AppError('ResourceNotFound', `entity ${entityId} not found`);
      // Every record here is about this entity, which the actor sees: the store's page is theirs.
      return (await store.audit({ ...page, entityId })).map((r) => auditView(actor, r));
    },

    /** Newest first; records about entities the actor cannot see are left out. */
    async forUser(actor: EntityActor, userId: string, page: AuditPage): Promise<StoredAuditRecord[]> {
      return visiblePage(actor, { userId }, page);
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
