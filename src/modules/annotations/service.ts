// Data annotations: notes on a point in time that charts show, optionally on one entity and
// with tags. An annotation of an entity is as visible as the entity (404 otherwise, lists leave
// it out) and goes when the entity is deleted; one of no entity is visible to every signed-in
// user. Creating, changing and deleting need the right manage-history (declared on the routes);
// someone else's annotation is changed or deleted only with manage-configuration as well, so a
// note stays its author's unless an administrator steps in.
import { scanPage } from '../../core/scan-page.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import { refuseUnknownFields } from '../../core/input/known-fields.js';
import type { AnnotationRow, AnnotationsStore } from '../../storage/annotation-types.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import { idOf } from '../entities/entity-input.js';
import type { AnnotationListInput, CreateAnnotationInput, PatchAnnotationInput } from './schemas.js';

const SCAN_BATCH = 1000;
/** A restricted caller's page reads at most this many annotations looking for visible ones. */
const MAX_SCAN = 1_000_000;
const CREATE_FIELDS = ['timestamp', 'content', 'entityId', 'tags'] as const;
const PATCH_FIELDS = ['content', 'timestamp', 'tags'] as const;
/** Changes someone else's annotation, besides manage-history. */
const MODERATOR_RIGHT = 'manage-configuration' as const;

export interface AnnotationView {
  id: string;
  content: string;
  user: string;
  timestamp: number;
  changed: number;
  entityId?: string;
  tags?: string[];
}

export function annotationView(row: AnnotationRow): AnnotationView {
  const view: AnnotationView = { id: row.id, content: row.content, user: row.userId, timestamp: row.timestamp, changed: row.changed };
  if (row.entityId !== null) view.entityId = row.entityId;
  if (row.tags !== null) view.tags = row.tags;
  return view;
}

function contentOf(content: string): string {
  if (content.trim() === '') throw badRequest('content: must not be empty');
  return content;
}

/** Unique tags in the order given; none is stored as no tags. */
const tagsOf = (tags: string[] | undefined): string[] | null => (tags && tags.length > 0 ? [...new Set(tags)] : null);

export function createAnnotationsService({ store, catalog, clock }: {
  store: AnnotationsStore;
  catalog: Catalog;
  clock: () => number;
}) {
  /** Annotations of an entity are seen by those who see the entity. */
  function visible(actor: EntityActor, row: AnnotationRow): boolean {
    if (row.entityId === null || actor.visibility.all) return true;
    const entity = catalog.entity(row.entityId);
    return entity !== undefined && canSee(actor, entity);
  }

  /** The entity a request names, if the caller sees it; 400 naming the field otherwise. */
  function entityFor(actor: EntityActor, given: string | number): MemEntity {
    const id = idOf(given);
    const entity = id === undefined ? undefined : catalog.entity(id);
    if (!entity || !canSee(actor, entity)) throw badRequest(`entityId: unknown entity ${given}`);
    return entity;
  }

  async function visibleRow(actor: EntityActor, id: string): Promise<AnnotationRow> {
    const key = idOf(id);
    const row = key === undefined ? undefined : await store.get(key);
    if (!row || !visible(actor, row)) throw notFound(`annotation ${id}`);
    return row;
  }

  /** The annotation the caller may change: its own, or anyone's with manage-configuration. */
  async function changeableRow(actor: EntityActor, id: string): Promise<AnnotationRow> {
    const row = await visibleRow(actor, id);
    if (row.userId !== actor.userId && !actor.rights.has(MODERATOR_RIGHT)) {
      throw new AppError('Forbidden', `Forbidden: annotation ${id} is another user's; changing it needs the right "${MODERATOR_RIGHT}"`);
    }
    return row;
  }

  return {
    async create(actor: EntityActor, input: CreateAnnotationInput): Promise<AnnotationView> {
      refuseUnknownFields(input, CREATE_FIELDS);
      const entity = input.entityId === undefined ? undefined : entityFor(actor, input.entityId);
      const row = await store.create({
        timestamp: input.timestamp,
        content: contentOf(input.content),
        userId: actor.userId,
        entityId: entity?.id ?? null,
        tags: tagsOf(input.tags),
        changed: clock(),
      });
      // Deleted between the check and the write.
      if (!row) throw badRequest(`entityId: unknown entity ${input.entityId}`);
      return annotationView(row);
    },

    get: async (actor: EntityActor, id: string) => annotationView(await visibleRow(actor, id)),

    /** Annotations with `from <= timestamp <= to`, by timestamp then id. */
    async list(actor: EntityActor, input: AnnotationListInput & { limit: number; skip: number }): Promise<AnnotationView[]> {
      if (input.from > input.to) throw badRequest(`from: ${input.from} is after to (${input.to})`);
      const entityId = input.entityId === undefined ? undefined : entityFor(actor, input.entityId).id;
      if (input.limit === 0) return [];
      const query = { from: input.from, to: input.to, entityId, tag: input.tag };
      // One entity already checked, or a caller who sees everything: the store pages alone.
      if (entityId !== undefined || actor.visibility.all) return (await store.find({ ...query, limit: input.limit, skip: input.skip })).map(annotationView);
      return scanPage<AnnotationRow, AnnotationView>({
        fetch: (after, limit) => store.find({ ...query, limit, after }),
        keep: (row) => (visible(actor, row) ? annotationView(row) : undefined),
        skip: input.skip, limit: input.limit, batchSize: SCAN_BATCH, maxScan: MAX_SCAN,
      });
    },

    /** Changes content, timestamp or tags; the author stays, `changed` moves. */
    async update(actor: EntityActor, id: string, input: PatchAnnotationInput): Promise<AnnotationView> {
      refuseUnknownFields(input, PATCH_FIELDS);
      const row = await changeableRow(actor, id);
      if (Object.keys(input).length === 0) return annotationView(row);
      const next: AnnotationRow = {
        ...row,
        content: input.content === undefined ? row.content : contentOf(input.content),
        timestamp: input.timestamp ?? row.timestamp,
        tags: input.tags === undefined ? row.tags : tagsOf(input.tags),
        // Strictly later than the last change, so a client comparing `changed` sees every change.
        changed: Math.max(clock(), row.changed + 1),
      };
      const stored = await store.update(next);
      if (!stored) throw notFound(`annotation ${id}`);
      return annotationView(stored);
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      const row = await changeableRow(actor, id);
      if (!(await store.delete(row.id))) throw notFound(`annotation ${id}`);
    },
  };
}

export type AnnotationsService = Awaited<ReturnType<typeof createAnnotationsService>>;
