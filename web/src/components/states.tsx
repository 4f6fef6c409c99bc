// Entity states (ids, names, colours) from GET /states, loaded once for the whole app, and a
// badge that shows one.
import { createContext, useContext, type ReactNode } from 'react';
import { api, data } from '../api/client';
import { useApi } from '../api/use-api';

export interface StateInfo {
  id: number;
  name: string;
  color: string;
}

const StatesContext = createContext<Map<number, StateInfo>>(new Map());

export function StatesProvider({ children }: { children: ReactNode }) {
  const { data: states } = useApi(async () => {
    const list = data(await api.GET('/node/api/states')) as unknown as Array<{ id: number | string; name: string; ui?: { colors?: { main?: string } } }>;
    return new Map(list.map((s) => [Number(s.id), { id: Number(s.id), name: s.name, color: s.ui?.colors?.main ?? '#888888' }]));
  }, []);
  return <StatesContext.Provider value={states ?? new Map()}>{children}</StatesContext.Provider>;
}

export const useStates = () => useContext(StatesContext);

export function StateBadge({ stateId }: { stateId: number }) {
  const s = useStates().get(stateId);
  return (
    <span className="badge" style={{ background: s?.color ?? '#888' }} title={`state ${stateId}`}>
      {s?.name ?? `state ${stateId}`}
    </span>
  );
}
