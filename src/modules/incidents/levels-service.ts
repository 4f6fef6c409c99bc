// Incident levels: how serious an incident is (built-in 1 Alarm, 2 Warning, 3 Cleared, 4 Major,
// and those users add). The table is small and read whole at start; `ids()` answers from memory
// because the settings service validates incident conditions synchronously against it.
// A level may not be deleted while something uses it: Cleared always, and whatever the checks
// registered with `guardDeletion` find (the incidents service registers open incidents,
// incident conditions and the configured state → level map).
// Each level has a priority, higher is worse (built-ins: Cleared 0, Warning 10, Alarm 20,
// Major 30; custom ones 20 unless given): what "a worse level" means for a non-sticky
// acknowledgement, and the threshold of a dependency's cause.
import { conflict, notFound } from '../../errors.js';
import { CLEARED_LEVEL, type IncidentsStore, type LevelRow } from '../../storage/incidents-types.js';
import { DuplicateKeyError } from '../../storage/types.js';
import { idOf } from '../entities/entity-input.js';
import { serialQueue } from '../../core/serial-queue.js';
import { publishing, type ChangePublisher } from '../../core/change-publisher.js';

export interface LevelView {
  id: string;
  name: string;
  /** Higher is worse (levels-service header). */
  priority: number;
  ui: { colors: { main: string } };
}

export interface LevelInput {
  name?: string;
  priority?: number;
  ui?: { colors?: { main?: string } };
}

/** A custom level's priority when none is given: as serious as Alarm. */
export const DEFAULT_LEVEL_PRIORITY = 20;

/** Answers why the level is in use, or undefined when it is free. */
export type LevelDeletionGuard = (id: string) => Promise<string | undefined> | string | undefined;

export const levelView = (l: LevelRow): LevelView => ({ id: l.id, name: l.name, priority: l.priority, ui: { colors: { main: l.color } } });

/** Change feed topic: the incident levels changed (other nodes re-read them). */
export const LEVELS_CHANGED = 'incident-levels';

export async function createIncidentLevelsService({ store, clock, feed }: { store: IncidentsStore; clock: () => number; feed?: ChangePublisher }) {
  const levels = new Map<string, LevelRow>();
  for (const l of await store.levels()) levels.set(l.id, l);
  let ids: ReadonlySet<string> = new Set(levels.keys());
  const guards: LevelDeletionGuard[] = [];
  // Changes run one at a time, so two creates cannot both pass the name check.
  const serial = serialQueue();

  const find = (id: string): LevelRow => {
    const key = idOf(id);
    const row = key === undefined ? undefined : levels.get(key);
    if (!row) throw notFound(`incident level ${id}`);
    return row;
  };
  const nameFree = (name: string, self?: string) => {
    for (const l of levels.values()) if (l.name === name && l.id !== self) throw conflict(`an incident level named "${name}" exists (id ${l.id})`);
  };
  const put = (row: LevelRow) => {
    levels.set(row.id, row);
    ids = new Set(levels.keys());
    return levelView(row);
  };
  const duplicate = (err: unknown, name: string | undefined): never => {
    if (err instanceof DuplicateKeyError) throw conflict(`an incident level named "${name}" exists`);
    throw err;
  };

  return {
    /** The ids of every level (a fresh set after each change). */
    ids: (): ReadonlySet<string> => ids,
    has: (id: string): boolean => ids.has(id),
    list: (): LevelView[] => [...levels.values()].map(levelView),
    get: (id: string): LevelView => levelView(find(id)),
    /** The level's priority (an unknown level counts as a custom one's default). */
    priorityOf: (id: string | number): number => levels.get(String(id))?.priority ?? DEFAULT_LEVEL_PRIORITY,

    guardDeletion(guard: LevelDeletionGuard): void {
      guards.push(guard);
    },

    create: publishing(feed, LEVELS_CHANGED, (input: { name: string; priority?: number; ui: { colors: { main: string } } }) => serial(async () => {
      nameFree(input.name);
      const row = await store.createLevel({ name: input.name, color: input.ui.colors.main, priority: input.priority ?? DEFAULT_LEVEL_PRIORITY }, clock()).catch((err) => duplicate(err, input.name));
      return put(row);
    })),

    update: publishing(feed, LEVELS_CHANGED, (id: string, input: LevelInput) => serial(async () => {
      const old = find(id);
      if (input.name !== undefined) nameFree(input.name, old.id);
      const row = await store.updateLevel(old.id, { name: input.name, color: input.ui?.colors?.main, priority: input.priority }, clock()).catch((err) => duplicate(err, input.name));
      if (!row) throw notFound(`incident level ${id}`);
      return put(row);
    })),

    remove: publishing(feed, LEVELS_CHANGED, (id: string) => serial(async () => {
      const old = find(id);
      if (old.id === String(CLEARED_LEVEL)) throw conflict(`incident level ${old.id} (${old.name}) is the level of cleared incidents and cannot be deleted`);
      for (const guard of guards) {
        const use = await guard(old.id);
        if (use) throw conflict(`incident level ${old.id} (${old.name}) is in use: ${use}`);
      }
      // The guards above explain most refusals; the store's delete is the one that counts,
      // since an incident may have been raised with the level since they looked (another node).
      const outcome = await store.deleteLevel(old.id);
      if (outcome === 'in use') throw conflict(`incident level ${old.id} (${old.name}) is in use: an active incident has it`);
      levels.delete(old.id);
      ids = new Set(levels.keys());
    })),

    /** Another node changed the levels: read them again. */
    reload: () => serial(async () => {
      const rows = await store.levels();
      levels.clear();
      for (const l of rows) levels.set(l.id, l);
      ids = new Set(levels.keys());
    }),
  };
}
export type IncidentLevelsService = Awaited<ReturnType<typeof createIncidentLevelsService>>;
