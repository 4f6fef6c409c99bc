// The server's live stream (Server-Sent Events: state, incident, stat) as a hook. One
// EventSource per page that asks; the browser reconnects by itself with Last-Event-ID.
import { useEffect, useRef } from 'react';

export type LiveType = 'state' | 'incident' | 'stat';

export function useLiveEvents(types: LiveType[], onEvent: (type: LiveType, data: any) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = types.join(',');
  useEffect(() => {
    const source = new EventSource(`/node/api/events/stream?types=${encodeURIComponent(key)}`, { withCredentials: true });
    const listeners = key.split(',').map((t) => {
      const l = (e: MessageEvent) => {
        try {
          handler.current(t as LiveType, JSON.parse(e.data as string));
        } catch {
          // a malformed event is skipped
        }
      };
      source.addEventListener(t, l as EventListener);
      return l;
    });
    return () => {
      listeners.forEach((l, i) => source.removeEventListener(key.split(',')[i]!, l as EventListener));
      source.close();
    };
  }, [key]);
}
