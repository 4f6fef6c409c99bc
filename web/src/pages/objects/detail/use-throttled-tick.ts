// A counter bumped at most once per `ms`: live events can arrive many times a second, and each
// bump reloads data, so a burst becomes one reload at its start and one at its end.
import { useCallback, useEffect, useRef, useState } from 'react';

export function useThrottledTick(ms: number): [number, () => void] {
  const [tick, setTick] = useState(0);
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const bump = useCallback(() => {
    if (timer.current !== undefined) return;
    const wait = last.current + ms - Date.now();
    const fire = () => {
      timer.current = undefined;
      last.current = Date.now();
      setTick((t) => t + 1);
    };
    if (wait <= 0) fire();
    else timer.current = setTimeout(fire, wait);
  }, [ms]);
  return [tick, bump];
}
