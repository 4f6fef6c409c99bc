// View presets: saved page layouts. A preset belongs to its creator: others neither see nor
// change it (404, as if absent) unless it is shared; a shared preset is readable by every
// signed-in user and changed or deleted by its owner, or by a user with the right manage-users
// (the administrators, who must be able to withdraw a preset shown to everyone). A private
// preset stays private even from them: it is one person's working state, not configuration.
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { refuseUnknownFields } from '../../core/input/known-fields.js';
import type { PresetRow, PresetsStore } from '../../storage/preset-types.js';
import type { EntityActor } from '../catalog/access.js';
import { idOf } from '../entities/entity-input.js';
import { checkPresetData } from './builtin-keys.js';
import { type CreatePresetInput, type PatchPresetInput, PRESET_LIMITS } from './schemas.js';

const FIELDS = ['name', 'key', 'data', 'shared'] as const;
/** The right that lets a user change or delete another user's shared preset. */
export const PRESET_MODERATOR_RIGHT = 'manage-users' as const;

export interface PresetView {
  id: string;
  name: string;
  key: string;
  data: Record<string, unknown>;
  shared: boolean;
  owner: string;
}

export const presetView = (row: PresetRow): PresetView => ({ id: row.id, name: row.name, key: row.key, data: row.data, shared: row.shared, owner: row.ownerId });

function nameOf(name: string): string {
  if (name.trim() === '') throw badRequest('name: must not be empty');
  return name;
}

function dataOf(key: string, data: Record<string, unknown>): Record<string, unknown> {
  // The JSON body parser already bounds nesting; the size is bounded here, as stored.
  const bytes = Buffer.byteLength(JSON.stringify(data));
  if (bytes > PRESET_LIMITS.dataBytes) throw badRequest(`data: ${bytes} bytes as JSON; at most ${PRESET_LIMITS.dataBytes}`);
  checkPresetData(key, data);
  return data;
}

export function createPresetsService({ store, clock }: { store: PresetsStore; clock: () => number }) {
  const readable = (actor: EntityActor, row: PresetRow) => row.shared || row.ownerId === actor.userId;

  async function readableRow(actor: EntityActor, id: string): Promise<PresetRow> {
    const key = idOf(id);
    const row = key === undefined ? undefined : await store.get(key);
    if (!row || !readable(actor, row)) throw notFound(`preset ${id}`);
    return row;
  }

  async function changeableRow(actor: EntityActor, id: string): Promise<PresetRow> {
    const row = await readableRow(actor, id);
    if (row.ownerId !== actor.userId && !actor.rights.has(PRESET_MODERATOR_RIGHT)) {
      throw new AppError('Forbidden', `Forbidden: preset ${id} is shared by another user; only its owner or a user with right "${PRESET_MODERATOR_RIGHT}" may change it`);
    }
    return row;
  }

  async function save(row: PresetRow, id: string): Promise<PresetView> {
    const stored = await store.update(row);
    if (!stored) throw notFound(`preset ${id}`);
    return presetView(stored);
  }

  return {
    async create(actor: EntityActor, input: CreatePresetInput): Promise<PresetView> {
      refuseUnknownFields(input, FIELDS);
      const now = clock();
      const row = await store.create({
        ownerId: actor.userId, name: nameOf(input.name), key: input.key, data: dataOf(input.key, input.data), shared: input.shared ?? false, created: now, updated: now,
      }, PRESET_LIMITS.perUser);
      if (!row) throw conflict(`a user may keep at most ${PRESET_LIMITS.perUser} presets; delete some first`);
      return presetView(row);
    },

    get: async (actor: EntityActor, id: string) => presetView(await readableRow(actor, id)),

    /** The caller's own presets and the shared ones, by id. */
    list: async (actor: EntityActor, q: { key?: string; limit: number; skip: number }) =>
      q.limit === 0 ? [] : (await store.find({ viewerId: actor.userId, key: q.key, limit: q.limit, skip: q.skip })).map(presetView),

    /** PUT: name, key and data replaced; `shared` left out is false. */
    async replace(actor: EntityActor, id: string, input: CreatePresetInput): Promise<PresetView> {
      refuseUnknownFields(input, FIELDS);
      const row = await changeableRow(actor, id);
      return save({ ...row, name: nameOf(input.name), key: input.key, data: dataOf(input.key, input.data), shared: input.shared ?? false, updated: clock() }, id);
    },

    /** PATCH: the fields given; data is checked against the key the preset ends up with. */
    async update(actor: EntityActor, id: string, input: PatchPresetInput): Promise<PresetView> {
      refuseUnknownFields(input, FIELDS);
      const row = await changeableRow(actor, id);
      const key = input.key ?? row.key;
      const data = input.data !== undefined || input.key !== undefined ? dataOf(key, input.data ?? row.data) : row.data;
      return save({ ...row, name: input.name === undefined ? row.name : nameOf(input.name), key, data, shared: input.shared ?? row.shared, updated: clock() }, id);
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      const row = await changeableRow(actor, id);
      if (!(await store.delete(row.id))) throw notFound(`preset ${id}`);
    },
  };
}

export type PresetsService = ReturnType<typeof createPresetsService>;
