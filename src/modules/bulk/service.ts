// Bulk operations over the objects a search matches. Everything is checked before anything
// changes: the search, the shape of every operation and its documents (conditions, triggers).
// Then a job matches objects in the background (the count grows as it goes) and applies all
// changes as one batch, so the bulk changes every object or none. Jobs are stored, so their
// result outlives a restart; a job cut short by a stop changed nothing and says so.
import { refuseUnknownFields } from '../../core/input/known-fields.js';
import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from 'pino';
import { Value } from 'typebox/value';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { BulkJob, CatalogStore, CatalogWrite, SettingKind } from '../../storage/catalog-types.js';
import { type EntityActor, requireAnyRight } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import { checkPropertyType, idList, tagIdsOf } from '../entities/entity-input.js';
import type { ObjectSearch } from '../entities/object-search.js';
import type { ObjectsService } from '../entities/objects-service.js';
import type { PropertiesService } from '../entities/properties-service.js';
import { PatchObjectBody, type PatchObjectInput, type PropertyInputT } from '../entities/schemas.js';
import type { SettingsService } from '../entities/settings-service.js';

/** Fields `modify` may set on many objects at once (a discovery id or class is one object's). */
const BULK_MODIFIABLE = new Set(['name', 'client_data', 'tags', 'parent_id']);
const SETTING_OPS: readonly SettingKind[] = ['stateConditions', 'stateTriggers', 'incidentConditions'];
const PROPERTY_OP = 'properties.createOrModify';

/** Objects prepared between two yields to the event loop. */
const PREPARE_SLICE = 2000;

/**
 * The operations folded into one change per object: all `modify` fields (a later one wins),
 * properties by name (a later one wins) and one document per setting. Applied one by one, a
 * second operation would start from the object as it was, undoing the first.
 */
function merge(ops: Operation[]): { patch?: PatchObjectInput; props: PropertyInputT[]; settings: Map<SettingKind, unknown[]> } {
  let patch: PatchObjectInput | undefined;
  const props = new Map<string, PropertyInputT>();
  const docs = new Map<SettingKind, unknown[]>();
  for (const op of ops) {
    if (op.kind === 'modify') patch = { ...patch, ...op.patch };
    else if (op.kind === 'property') for (const p of op.props) props.set(p.name, p);
    else docs.set(op.setting, op.doc);
  }
  return { patch, props: [...props.values()], settings: docs };
}

/** One checked operation, ready to apply to any matched object. */
type Operation =
  | { kind: 'modify'; patch: PatchObjectInput }
  | { kind: 'property'; props: PropertyInputT[] }
  | { kind: 'setting'; setting: SettingKind; doc: unknown[] };

export interface BulkDeps {
  catalog: Catalog;
  store: CatalogStore;
  search: ObjectSearch;
  objects: ObjectsService;
  properties: PropertiesService;
  settings: SettingsService;
  clock: () => number;
  logger: Logger;
  /** How long POST waits for a job to finish before answering `finished: false`. */
  answerWithinMs?: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function createBulkService({ catalog, store, search, objects, properties, settings, clock, logger, answerWithinMs = 1000 }: BulkDeps) {
  /** Jobs running in this process; finished ones are read from the store. */
  const running = new Map<string, BulkJob>();
  /** Their completions, so a stop can let them finish before the database closes. */
  const inFlight = new Set<Promise<unknown>>();

  function checkProperty(value: unknown, where: string): PropertyInputT {
    if (!isObject(value)) throw badRequest(`${where}: a property object {name, value, type_id}`);
    refuseUnknownFields(value, ['name', 'value', 'type_id'], where);
    const { name, value: v, type_id } = value;
    if (typeof name !== 'string' || name === '' || name.length > 256) throw badRequest(`${where}.name: a non-empty string`);
    if (!(v === null || ['string', 'number', 'boolean'].includes(typeof v))) throw badRequest(`${where}.value: a string`);
    if (type_id !== undefined && !Number.isInteger(type_id)) throw badRequest(`${where}.type_id: an integer`);
    if (type_id !== undefined) checkPropertyType(type_id as number, `${where}.`);
    return { name, value: v as PropertyInputT['value'], type_id: type_id as number | undefined };
  }

  function checkModify(actor: EntityActor, value: unknown, where: string): PatchObjectInput {
    if (!isObject(value)) throw badRequest(`${where}: an object of fields to change`);
    for (const key of Object.keys(value)) {
      if (!BULK_MODIFIABLE.has(key)) throw badRequest(`${where}.${key}: cannot be changed in bulk (allowed: ${[...BULK_MODIFIABLE].join(', ')})`);
    }
    // The same schema and checks as PATCH /objects/:id, with the operation named in errors.
    const error = Value.Errors(PatchObjectBody, value)[0];
    if (error) throw badRequest(`${where}${error.instancePath.replace(/\//g, '.')}: ${error.message}`);
    const patch = value as PatchObjectInput;
    if (patch.name === '') throw badRequest(`${where}.name: a non-empty string`);
    try {
      if (patch.tags !== undefined) tagIdsOf(catalog, patch.tags);
      if (patch.parent_id !== undefined) {
        const ids = idList('parent_id', patch.parent_id);
        if (ids.length === 0) throw badRequest('parent_id: at least one parent');
        // A parent the actor cannot see is refused here like an absent one, not later by the job
        // (which would tell the two apart). Kept hidden parents: see ObjectsService.changeWrites.
        for (const p of ids) if (!catalog.hasObject(p) || !actor.visibility.canRead(p)) throw badRequest(`parent_id: unknown object ${p}`);
      }
    } catch (err) {
      if (err instanceof AppError) throw badRequest(`${where}.${err.message}`);
      throw err;
    }
    return patch;
  }

  /** Every operation checked, or 400 naming the first bad one; nothing has changed yet. */
  function checkOperations(actor: EntityActor, bulk: unknown[]): Operation[] {
    return bulk.map((op, i): Operation => {
      const where = `bulk[${i}]`;
      if (!isObject(op) || Object.keys(op).length !== 1) {
        throw badRequest(`${where}: one of modify, ${PROPERTY_OP}, ${SETTING_OPS.join(', ')} per operation`);
      }
      const [key, value] = Object.entries(op)[0]!;
      if (key === 'modify') {
        requireAnyRight(actor, 'modify-objects', 'manage-objects');
        return { kind: 'modify', patch: checkModify(actor, value, `${where}.modify`) };
      }
      if (key === PROPERTY_OP) {
        const list = Array.isArray(value) ? value : [value];
        const props = list.map((p, j) => checkProperty(p, Array.isArray(value) ? `${where}.${PROPERTY_OP}[${j}]` : `${where}.${PROPERTY_OP}`));
        for (const p of props) requireAnyRight(actor, p.type_id === 8 ? 'manage-service-properties' : 'manage-properties');
        return { kind: 'property', props };
      }
      if ((SETTING_OPS as readonly string[]).includes(key)) {
        requireAnyRight(actor, 'modify-objects', 'manage-objects');
        // The base document calls it an object: one condition (or trigger) stands for a
        // document of one; an array is the whole document.
        const doc = isObject(value) ? [value] : value;
        return { kind: 'setting', setting: key as SettingKind, doc: settings.validate(key as SettingKind, doc, `${where}.${key}`) };
      }
      throw badRequest(`${where}: unknown operation ${key} (one of modify, ${PROPERTY_OP}, ${SETTING_OPS.join(', ')})`);
    });
  }

  async function save(job: BulkJob): Promise<void> {
    await store.putBulkJob({ ...job, errors: [...job.errors] });
  }

  async function run(actor: EntityActor, job: BulkJob, criteria: Record<string, unknown>, ops: Operation[]): Promise<void> {
    try {
      const matched = await search.match(actor, criteria, { changeable: true, progress: (n) => (job.matched = n) });
      job.matched = matched.length;
      await save(job);
      const plan = merge(ops);
      job.changed = await catalog.mutate(async () => {
        const now = clock();
        const writes: CatalogWrite[] = [];
        let changed = 0;
        for (const [i, m] of matched.entries()) {
          // Objects deleted since they matched are skipped.
          const o = catalog.object(m.id);
          const before = writes.length;
          if (o && plan.patch) writes.push(...(objects.changeWrites(actor, o, plan.patch, now)?.writes ?? []));
          if (o) for (const p of plan.props) writes.push(...properties.createOrModifyWrites(actor, o, p, now, `object ${o.id}: `));
          if (o) for (const [kind, doc] of plan.settings) writes.push(...settings.putWrites(actor, o, kind, doc, now));
          if (writes.length > before) changed++;
          // The count grows while a large bulk is prepared; other requests are served meanwhile
          // (changes wait their turn, so the catalog cannot move under the bulk).
          if ((i + 1) % PREPARE_SLICE === 0) {
            job.changed = changed;
            await yieldToEventLoop();
          }
        }
        return { writes, result: changed };
      });
    } catch (err) {
      // All or nothing: a failing object leaves every object as it was.
      job.changed = 0;
      job.errors.push(err instanceof AppError ? err.message : 'internal error; see the server log');
      if (!(err instanceof AppError)) logger.error({ err, bulkId: job.bulkId }, 'bulk operation failed');
    } finally {
      job.finished = true;
      running.delete(job.bulkId);
      await save(job);
    }
  }

  return {
    /** Starts a bulk; answers when it is done or after `answerWithinMs`, whichever is first. */
    async start(actor: EntityActor, input: { search?: Record<string, unknown>; bulk: unknown[] }): Promise<{ bulkId: string; finished: boolean }> {
      requireAnyRight(actor, 'manage-objects');
      const criteria = input.search ?? {};
      search.check(criteria);
      const ops = checkOperations(actor, input.bulk);
      const job: BulkJob = { bulkId: randomUUID(), userId: actor.userId, created: clock(), finished: false, matched: 0, changed: 0, errors: [] };
      await save(job);
      running.set(job.bulkId, job);
      const done = run(actor, job, criteria, ops).catch((err) => logger.error({ err, bulkId: job.bulkId }, 'bulk job could not be saved'));
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([done, new Promise((resolve) => (timer = setTimeout(resolve, answerWithinMs)))]);
      clearTimeout(timer);
      return { bulkId: job.bulkId, finished: job.finished };
    },

    async get(actor: EntityActor, bulkId: string): Promise<Omit<BulkJob, 'userId' | 'created'>> {
      const job = running.get(bulkId) ?? (await store.getBulkJob(bulkId));
      // Another user's job is as absent, unless the caller manages users (an admin).
      if (!job || (job.userId !== actor.userId && !actor.rights.has('manage-users'))) throw notFound(`bulk ${bulkId}`);
      return { bulkId: job.bulkId, finished: job.finished, matched: job.matched, changed: job.changed, errors: [...job.errors] };
    },

    /** Jobs a stop cut short changed nothing (their batch was never stored): say so. */
    recover: () => store.abandonBulkJobs('the server stopped before this bulk was applied; nothing was changed'),

    /** Resolves once every running job has finished (a stop waits for this). */
    settle: async (): Promise<void> => {
      await Promise.allSettled([...inFlight]);
    },
  };
}

export type BulkService = ReturnType<typeof createBulkService>;
