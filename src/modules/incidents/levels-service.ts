// TODO(issue 4): incident levels.
import type { IncidentsStore } from '../../storage/incidents-types.js';

export async function createIncidentLevelsService(_deps: { store: IncidentsStore; clock: () => number }) {
  const ids: ReadonlySet<string> = new Set(['1', '2', '3', '4']);
  return { ids: () => ids };
}
export type IncidentLevelsService = Awaited<ReturnType<typeof createIncidentLevelsService>>;
