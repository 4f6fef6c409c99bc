// Entity states: the built-in ones (1 Created ... 9 Disable) and those users add. A state's
// priority decides which child state a parent takes; `ui.colors.main` is how it is drawn.
import { badRequest, conflict } from '../../errors.js';
import type { StateRow } from '../../storage/catalog-types.js';
import { type EntityActor, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import type { Catalog } from '../catalog/catalog.js';
import { assertNameFree, findById } from '../catalog/named.js';

export interface StateInput {
  id?: number;
  name?: string;
  priority?: number;
  ui?: { colors?: { main?: string } };
}

/** Ids of states users add start here, clear of the built-in range. */
const FIRST_CUSTOM_ID = 100;

export const stateView = (s: StateRow) => ({ id: s.id, name: s.name, priority: s.priority, ui: { colors: { main: s.color } }, builtIn: s.builtIn });

export function createStatesService({ catalog, clock }: { catalog: Catalog; clock: () => number }) {
  const get = (id: number): StateRow => findById(catalog.state, id, 'state', id);
  const nameFree = (name: string, self?: number) => assertNameFree(catalog.stateList(), name, 'state', self);

  return {
    list: () => catalog.stateList().map(stateView),
    get: (id: number) => stateView(get(id)),

    async create(actor: EntityActor, input: StateInput & { name: string; priority: number }) {
      requireAnyRight(actor, 'manage-configuration');
      return catalog.mutate(() => {
        nameFree(input.name);
        let id = input.id;
        if (id !== undefined) {
          if (catalog.state(id)) throw conflict(`state ${id} exists`);
        } else {
          id = Math.max(FIRST_CUSTOM_ID - 1, ...catalog.stateIds()) + 1;
        }
        const color = input.ui?.colors?.main;
        if (color === undefined) throw badRequest('ui.colors.main: required');
        const now = clock();
        const row: StateRow = { id, name: input.name, priority: input.priority, color, builtIn: false, created: now, updated: now };
        return { writes: [{ op: 'putState', row }, auditWrite(actor.userId, 'create', 'state', String(id), null, null, row, now)], result: stateView(row) };
      });
    },

    async update(actor: EntityActor, id: number, input: StateInput) {
      requireAnyRight(actor, 'manage-configuration');
      return catalog.mutate(() => {
        const old = get(id);
        if (input.name !== undefined) nameFree(input.name, id);
        const now = clock();
        const row: StateRow = {
          ...old, name: input.name ?? old.name, priority: input.priority ?? old.priority, color: input.ui?.colors?.main ?? old.color, updated: now,
        };
        return { writes: [{ op: 'putState', row }, auditWrite(actor.userId, 'update', 'state', String(id), null, old, row, now)], result: stateView(row) };
      });
    },
  };
}

export type StatesService = ReturnType<typeof createStatesService>;
