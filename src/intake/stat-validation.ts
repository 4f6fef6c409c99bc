// Validation of measurements, the pipeline's second stage (see stat-intake.ts): a pushed body
// becomes a StatItem or a 400 naming the bad part. Shape and time only; who may push is the
// caller's check (stat-push.ts). Each function is pure but for the clock value passed in.
import { refuseUnknownFields } from '../core/input/known-fields.js';
import { flattenPayload, PayloadError } from '../core/metrics/flatten.js';
import type { StatItem } from '../core/pipeline/stat-item.js';
import { AppError, badRequest } from '../errors.js';

/** Items of one POST /stat at most. */
export const MAX_BATCH_ITEMS = 1000;

/**
 * One entity's measurements: `body` a JSON object; a top-level numeric `timestamp` in it is the
 * time of the measurements (agents that buffer send it) unless `timestamp` is given apart.
 */
export function statItem(entity: { id: string; entityType: 1 | 2 }, body: unknown, timestamp: unknown, where: string, now: number, maxFutureMs: number): StatItem {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('InvalidContent', `${where}: expected a JSON object of measurements`);
  }
  let payload: Record<string, unknown>;
  let ts = timestamp;
  if (ts === undefined && typeof (body as Record<string, unknown>).timestamp === 'number') {
    // A rest copy, not a spread and `delete`: deleting a key other than the last turns the
    // object into a dictionary, which every later walk of it (flatten, the journal's
    // JSON.stringify) pays for, about 30 ns per value in all.
    ({ timestamp: ts, ...payload } = body as Record<string, unknown>);
  } else payload = { ...(body as Record<string, unknown>) };
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

/** The body of POST /stat must be an array of at most MAX_BATCH_ITEMS. */
export function batchBody(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw new AppError('InvalidContent', 'body: expected an array of {entityId, timestamp, data}');
  if (body.length > MAX_BATCH_ITEMS) throw badRequest(`body: more than ${MAX_BATCH_ITEMS} items`);
  return body;
}

/** One entry of POST /stat: `{entityId, timestamp?, data}`, nothing else. */
export function batchEntry(raw: unknown, where: string): { entityId: string; timestamp: unknown; data: unknown } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw badRequest(`${where}: expected {entityId, timestamp, data}`);
  refuseUnknownFields(raw, ['entityId', 'timestamp', 'data'], where);
  const { entityId, timestamp, data } = raw as Record<string, unknown>;
  if ((typeof entityId !== 'string' && typeof entityId !== 'number') || String(entityId).length > 32) throw badRequest(`${where}.entityId: expected an entity id`);
  return { entityId: String(entityId), timestamp, data };
}
