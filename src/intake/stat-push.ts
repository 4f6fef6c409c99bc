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
  /** Pushes refused before the intake, for self-metrics (GET /metrics). */
  let refused = 0;
  function counted<T>(check: () => T): T {
    try {
      return check();
    } catch (err) {
      refused++;
      throw err;
    }
  }

  return {
    /** One entity's payload (POST /objects/:id/stat). */
    push(actor: EntityActor, entity: MemEntity, body: unknown): Promise<void> {
      const item = counted(() => {
        allowed(actor, entity);
        return statItem(entity, body, undefined, 'body', clock(), maxFutureMs);
      });
      return intake.push([item]);
    },

    /** Many entities' payloads at once (POST /stat): `[{entityId, timestamp?, data}]`. */
    pushBatch(actor: EntityActor, body: unknown): Promise<void> {
      const now = clock();
      const items = counted(() => batchBody(body).map((raw: unknown, i) => {
        const where = `[${i}]`;
        const { entityId, timestamp, data } = batchEntry(raw, where);
        const entity = seen(actor, catalog.entity(entityId), 'entity', entityId);
        allowed(actor, entity);
        return statItem(entity, data, timestamp, `${where}.data`, now, maxFutureMs);
      }));
      return intake.push(items);
    },

    /** Pushes refused (access, shape, timestamp) since start. */
    refused: () => refused,
  };
}

export type StatService = ReturnType<typeof createStatService>;
