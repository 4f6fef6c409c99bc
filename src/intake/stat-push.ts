// Turns what clients push into intake items: access checked (the push right for the entity's
// kind, then objectPermissions), then validated (stat-validation.ts). All items of a request
// are checked before any is stored, so a bad item in a batch stores nothing.
import type { StatSink } from '../core/pipeline/stat-item.js';
import { type EntityActor, canChange, outsidePermissions, seen } from '../modules/catalog/access.js';
import type { Catalog, MemEntity } from '../modules/catalog/catalog.js';
import { requirePushRight } from '../modules/history/push-rights.js';
import { batchBody, batchEntry, statItem } from './stat-validation.js';

export { MAX_BATCH_ITEMS } from './stat-validation.js';

export function createStatService({ catalog, intake, clock, maxFutureMs }: { catalog: Catalog; intake: StatSink; clock: () => number; maxFutureMs: number }) {
  function allowed(actor: EntityActor, entity: MemEntity): void {
    requirePushRight(actor, entity);
    if (!canChange(actor, entity)) throw outsidePermissions(`entity ${entity.id}`);
  }

  return {
    /** One entity's payload (POST /objects/:id/stat). */
    push(actor: EntityActor, entity: MemEntity, body: unknown): Promise<void> {
      allowed(actor, entity);
      return intake.push([statItem(entity, body, undefined, 'body', clock(), maxFutureMs)]);
    },

    /** Many entities' payloads at once (POST /stat): `[{entityId, timestamp?, data}]`. */
    pushBatch(actor: EntityActor, body: unknown): Promise<void> {
      const entries = batchBody(body);
      const now = clock();
      const items = entries.map((raw: unknown, i) => {
        const where = `[${i}]`;
        const { entityId, timestamp, data } = batchEntry(raw, where);
        const entity = seen(actor, catalog.entity(entityId), 'entity', entityId);
        allowed(actor, entity);
        return statItem(entity, data, timestamp, `${where}.data`, now, maxFutureMs);
      });
      return intake.push(items);
    },
  };
}

export type StatService = ReturnType<typeof createStatService>;
