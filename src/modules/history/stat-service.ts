// Turns what clients push into intake items: access checked (the push right for the entity's
// kind, then objectPermissions), payload flattened and bounded,
// timestamp validated. All items of a request are checked before any is stored, so a bad item
// in a batch stores nothing.
import { refuseUnknownFields } from '../../core/input/known-fields.js';
import { flattenPayload, PayloadError } from '../../core/metrics/flatten.js';
import { AppError, badRequest } from '../../errors.js';
import type { StatIntake, StatItem } from '../../intake/stat-intake.js';
import { type EntityActor, canChange, outsidePermissions, seen } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import { requirePushRight } from './push-rights.js';

export const MAX_BATCH_ITEMS = 1000;

export function createStatService({ catalog, intake, clock, maxFutureMs }: { catalog: Catalog; intake: StatIntake; clock: () => number; maxFutureMs: number }) {
  function item(actor: EntityActor, entity: MemEntity, body: unknown, timestamp: unknown, where: string, now: number): StatItem {
    requirePushRight(actor, entity);
    if (!canChange(actor, entity)) throw outsidePermissions(`entity ${entity.id}`);
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new AppError('InvalidContent', `${where}: expected a JSON object of measurements`);
    }
    const payload = { ...(body as Record<string, unknown>) };
    // A top-level numeric `timestamp` is the time of the measurements (agents that buffer send it).
    let ts = timestamp;
    if (ts === undefined && typeof payload.timestamp === 'number') {
      ts = payload.timestamp;
      delete payload.timestamp;
    }
    let at = now;
    if (ts !== undefined) {
      if (typeof ts !== 'number' || !Number.isSafeInteger(ts) || ts < 0) throw badRequest(`${where}.timestamp: expected milliseconds since 1970 (a whole number >= 0)`);
      if (ts > now + maxFutureMs) throw badRequest(`${where}.timestamp: ${ts} is more than ${maxFutureMs} ms ahead of the server clock`);
      at = ts;
    }
    try {
      const { numbers, values } = flattenPayload(payload);
      return { entityId: entity.id, entityType: entity.entityType, timestamp: at, payload, numbers, values };
    } catch (err) {
      if (err instanceof PayloadError) throw badRequest(`${where}: ${err.message}`);
      throw err;
    }
  }

  return {
    /** One entity's payload (POST /objects/:id/stat). */
    push(actor: EntityActor, entity: MemEntity, body: unknown): Promise<void> {
      return intake.push([item(actor, entity, body, undefined, 'body', clock())]);
    },

    /** Many entities' payloads at once (POST /stat): `[{entityId, timestamp?, data}]`. */
    pushBatch(actor: EntityActor, body: unknown): Promise<void> {
      if (!Array.isArray(body)) throw new AppError('InvalidContent', 'body: expected an array of {entityId, timestamp, data}');
      if (body.length > MAX_BATCH_ITEMS) throw badRequest(`body: more than ${MAX_BATCH_ITEMS} items`);
      const now = clock();
      const items = body.map((raw: unknown, i) => {
        const where = `[${i}]`;
        if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest(`${where}: expected {entityId, timestamp, data}`);
        refuseUnknownFields(raw, ['entityId', 'timestamp', 'data'], where);
        const { entityId, timestamp, data } = raw as Record<string, unknown>;
        if ((typeof entityId !== 'string' && typeof entityId !== 'number') || String(entityId).length > 32) throw badRequest(`${where}.entityId: expected an entity id`);
        const entity = seen(actor, catalog.entity(String(entityId)), 'entity', String(entityId));
        return item(actor, entity, data, timestamp, `${where}.data`, now);
      });
      return intake.push(items);
    },

  };
}

export type StatService = ReturnType<typeof createStatService>;
