// The latest state of each entity told by the live stream, by entity id. Rows and map nodes
// show `live.get(id) ?? record.state_id`, so a change recolours them in place with no reload.
// Events are gathered and applied once per animation frame: a burst of thousands of changes
// costs a few renders, not thousands.
import { useEffect, useRef, useState } from 'react';
import { useLiveEvents } from '../../../live/use-live-events';

export type LiveStates = ReadonlyMap<string, number>;

export function useLiveStates(): LiveStates {
  const [states, setStates] = useState<LiveStates>(new Map());
  const pending = useRef(new Map<string, number>());
  const frame = useRef(0);

  useLiveEvents(['state'], (event) => {
    if (typeof event.entityId !== 'string' || typeof event.stateId !== 'number') return;
    pending.current.set(event.entityId, event.stateId);
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const batch = pending.current;
      pending.current = new Map();
      setStates((old) => new Map([...old, ...batch]));
    });
  });

  useEffect(() => () => cancelAnimationFrame(frame.current), []);
  return states;
}
