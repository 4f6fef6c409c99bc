// The server's live stream (Server-Sent Events: state, incident, stat) as a hook. One
// EventSource per page that asks; the browser reconnects by itself with Last-Event-ID.
// Event data is typed by the server's own schemas (LiveStateEvent, ... in the OpenAPI
// document); each carries its `type`, so a handler for several types narrows on it.
import { useEffect, useRef } from 'react';
import type { components } from '../api/client';

type Schemas = components['schemas'];

/** The data of each event type the stream sends. */
export interface LiveEvents {
  state: Schemas['LiveStateEvent'];
  incident: Schemas['LiveIncidentEvent'];
  stat: Schemas['LiveStatEvent'];
}

export type LiveType = keyof LiveEvents;

export function useLiveEvents<T extends LiveType>(types: T[], onEvent: (event: LiveEvents[T]) => void): void {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const key = types.join(',');
  useEffect(() => {
    const source = new EventSource(`/node/api/events/stream?types=${encodeURIComponent(key)}`, { withCredentials: true });
    const listeners = key.split(',').map((t) => {
      const l = (e: MessageEvent) => {
        try {
          handler.current(JSON.parse(e.data as string) as LiveEvents[T]);
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
