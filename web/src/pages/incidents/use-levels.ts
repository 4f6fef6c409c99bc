// Incident levels (names and colours) from GET /incident-levels, keyed by numeric id as
// incidents carry them in `state` and `lastState`.
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import type { IncidentLevel } from './types';

export type Levels = Map<number, IncidentLevel>;

export function useLevels(): { levels: Levels; error: unknown } {
  const { data: levels, error } = useApi(async () => {
    const list = data(await api.GET('/node/api/incident-levels'));
    return new Map(list.map((l) => [Number(l.id), l]));
  }, []);
  return { levels: levels ?? new Map(), error };
}

export const levelColor = (levels: Levels, id: number): string => levels.get(id)?.ui.colors.main ?? '#888888';
export const levelName = (levels: Levels, id: number): string => levels.get(id)?.name ?? `level ${id}`;
