// Entity states (ids, names, colours) from GET /states, loaded once for the whole app, and a
// badge that shows one. reloadStates() reads them again after a state is added or changed, so
// every badge and map follows without a page reload.
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import { api, data } from '../api/client';
import { useApi } from '../api/use-api';

export interface StateInfo {
  id: number;
  name: string;
  color: string;
}

interface StatesValue {
  states: Map<number, StateInfo>;
  reloadStates: () => void;
}

const StatesContext = createContext<StatesValue>({ states: new Map(), reloadStates: () => undefined });

export function StatesProvider({ children }: { children: ReactNode }) {
  const { data: states, reload } = useApi(async () => {
    const list = data(await api.GET('/node/api/states'));
    return new Map(list.map((s) => [Number(s.id), { id: Number(s.id), name: s.name, color: s.ui?.colors?.main ?? '#888888' }]));
  }, []);
  const value = useMemo(() => ({ states: states ?? new Map<number, StateInfo>(), reloadStates: reload }), [states, reload]);
  return <StatesContext.Provider value={value}>{children}</StatesContext.Provider>;
}

export const useStates = () => useContext(StatesContext).states;
export const useReloadStates = () => useContext(StatesContext).reloadStates;

export function StateBadge({ stateId }: { stateId: number }) {
  const s = useStates().get(stateId);
  return (
    <span className="badge" style={{ background: s?.color ?? '#888' }} title={`state ${stateId}`}>
      {s?.name ?? `state ${stateId}`}
    </span>
  );
}
