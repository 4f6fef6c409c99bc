// Where the standard intakes (Prometheus remote-write, OpenTSDB put) join the /stat intake:
// points already named (metric-name.ts) are sorted to their entities, checked as /stat checks
// a push (the push right of the entity's kind, then objectPermissions, the same time bounds),
// grouped into one payload per entity and timestamp, and handed to the same StatSink, which
// answers once they are journaled and evaluated: the durability of POST /stat.
// Unlike /stat, a point that cannot be taken is skipped and counted, not fatal to the request:
// Prometheus drops a batch answered 4xx and OpenTSDB stores every good point of a put.
import { badRequest } from '../../errors.js';
import { DEFAULT_MAX_METRICS, flattenPayload } from '../../core/metrics/flatten.js';
import type { StatItem, StatSink } from '../../core/pipeline/stat-item.js';
import { type EntityActor, canChange, canSee } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import { mayPush } from '../history/push-rights.js';
import type { IngestPoint } from './ingest-point.js';
import { putPoints } from './opentsdb-put.js';
import { decodeWriteRequest, writeRequestPoints } from './prometheus-write.js';


/** Why a point was not stored (the decoders add their own reasons before this stage). */
export type EntitySkip = 'unknownEntity' | 'denied' | 'badTimestamp';

export interface IngestResult {
  stored: number;
  skipped: Record<EntitySkip, number>;
}

export interface IngestSettings {
  /** The Prometheus label naming the entity of a series. */
  entityLabel: string;
  /** The OpenTSDB tag naming the entity of a data point. */
  entityTag: string;
  maxDecompressedBytes: number;
  /** Samples (or data points) one request may carry. */
  maxSamples: number;
}

/** OpenTSDB's words for the reasons the service skips a point. */
const PUT_ERRORS: Record<EntitySkip, string> = {
  unknownEntity: 'Unknown entity: no visible entity has this id or discovery_id',
  denied: 'Forbidden: no push right for this entity, or it is outside your objectPermissions',
  badTimestamp: 'Timestamp is too far in the future (engine.maxFutureMs)',
};

export function createIngestService({ catalog, intake, clock, maxFutureMs, settings }: {
  catalog: Catalog;
  intake: StatSink;
  clock: () => number;
  maxFutureMs: number;
  settings: IngestSettings;
}) {
  /** The entity a label names: its id first, then an object's discovery_id; hidden ones are unknown. */
  function resolve(actor: EntityActor, ref: string): MemEntity | 'unknownEntity' | 'denied' {
    let entity = catalog.entity(ref);
    if (!entity) {
      const id = catalog.discovered(ref);
      entity = id === undefined ? undefined : catalog.entity(id);
    }
    // A hidden entity is as absent as an unknown one, as everywhere else in the API.
    if (!entity || !canSee(actor, entity)) return 'unknownEntity';
    return mayPush(actor, entity) && canChange(actor, entity) ? entity : 'denied';
  }

  /**
   * Stores what can be stored of `points`; `onSkip(index, reason)` hears of each point left
   * out. Resolves once the stored ones are journaled and evaluated.
   */
  async function store(actor: EntityActor, points: readonly IngestPoint[], onSkip?: (index: number, reason: EntitySkip) => void): Promise<IngestResult> {
    const now = clock();
    const skipped: Record<EntitySkip, number> = { unknownEntity: 0, denied: 0, badTimestamp: 0 };
    const skip = (i: number, reason: EntitySkip) => {
      skipped[reason]++;
      onSkip?.(i, reason);
    };
    const entities = new Map<string, MemEntity | 'unknownEntity' | 'denied'>();
    // entity id → timestamp → metric → value; a repeated name at one time keeps the last value.
    const groups = new Map<MemEntity, Map<number, Map<string, number>>>();
    let stored = 0;
    points.forEach((p, i) => {
      let found = entities.get(p.entity);
      if (found === undefined) entities.set(p.entity, (found = resolve(actor, p.entity)));
      if (typeof found === 'string') return skip(i, found);
      if (!Number.isSafeInteger(p.timestamp) || p.timestamp < 0 || p.timestamp > now + maxFutureMs) return skip(i, 'badTimestamp');
      let times = groups.get(found);
      if (!times) groups.set(found, (times = new Map()));
      let metrics = times.get(p.timestamp);
      if (!metrics) times.set(p.timestamp, (metrics = new Map()));
      metrics.set(p.metric, p.value);
      stored++;
    });
    const items: StatItem[] = [];
    for (const [entity, times] of groups) {
      // Oldest first, so the last payload an entity keeps is its newest.
      for (const timestamp of [...times.keys()].sort((a, b) => a - b)) {
        const metrics = [...times.get(timestamp)!];
        // A payload holds at most /stat's DEFAULT_MAX_METRICS values: more go in several.
        for (let from = 0; from < metrics.length; from += DEFAULT_MAX_METRICS) {
          const payload = Object.fromEntries(metrics.slice(from, from + DEFAULT_MAX_METRICS));
          const { numbers, values } = flattenPayload(payload);
          items.push({ entityId: entity.id, entityType: entity.entityType, timestamp, payload, numbers, values });
        }
      }
    }
    if (items.length > 0) await intake.push(items);
    return { stored, skipped };
  }

  return {
    store,

    /** POST /ingest/prometheus/write: a snappy protobuf WriteRequest; counts of what was stored and skipped. */
    async remoteWrite(actor: EntityActor, body: Uint8Array) {
      const request = decodeWriteRequest(body, settings);
      const { points, samples, skipped } = writeRequestPoints(request, settings.entityLabel, settings.maxSamples);
      const result = await store(actor, points);
      return { samples, stored: result.stored, skipped: { ...skipped, ...result.skipped } };
    },

    /**
     * POST /ingest/opentsdb/put: the good points stored, and OpenTSDB's account of the others
     * (`errors` in body order); 400 when none could be stored.
     */
    async put(actor: EntityActor, body: unknown) {
      const { raw, points, errors } = putPoints(body, settings.entityTag, settings.maxSamples);
      const result = await store(actor, points, (i, reason) => errors.push({ index: points[i]!.index, error: PUT_ERRORS[reason] }));
      errors.sort((a, b) => a.index - b.index);
      if (result.stored === 0) {
        const first = errors.slice(0, 3).map((e) => `[${e.index}] ${e.error}`).join('; ');
        throw badRequest(`none of the ${raw.length} data points could be stored: ${first}${errors.length > 3 ? '; ...' : ''}`);
      }
      return { success: result.stored, failed: errors.length, errors: errors.map((e) => ({ datapoint: raw[e.index], error: e.error })) };
    },
  };
}

export type IngestService = ReturnType<typeof createIngestService>;
