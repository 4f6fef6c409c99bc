// Live 'state' and 'stat' events of one object or link: ticks that make the tabs load again, and
// the newest state to show until the record is loaded again.
import { useCallback, useState } from 'react';
import { useLiveEvents } from '../../../live/use-live-events';
import { useThrottledTick } from './use-throttled-tick';

export function useEntityLive(id: string, reload: () => void) {
  const [statTick, bumpStat] = useThrottledTick(1000);
  const [stateTick, setStateTick] = useState(0);
  const [liveState, setLiveState] = useState<{ id: string; stateId: number } | undefined>();

  useLiveEvents(['state', 'stat'], (event) => {
    if (event.entityId !== id) return;
    if (event.type === 'stat') bumpStat();
    if (event.type === 'state' && typeof event.stateId === 'number') {
      setLiveState({ id, stateId: event.stateId });
      setStateTick((t) => t + 1);
    }
  });
  // A fresh record is at least as new as the live events seen so far.
  const reloadRecord = useCallback(() => {
    setLiveState(undefined);
    reload();
  }, [reload]);
  const stateChanged = useCallback(() => {
    setStateTick((t) => t + 1);
    reloadRecord();
  }, [reloadRecord]);
  return { statTick, stateTick, liveStateId: liveState?.id === id ? liveState.stateId : undefined, reloadRecord, stateChanged };
}
