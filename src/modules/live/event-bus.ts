// What happened in the engine, told to whoever listens (the live stream, triggers): state
// changes, incident changes and stat updates. Synchronous and in-process: a listener must not
// block (it queues its own work), and one that throws does not stop the others.
import type { Logger } from 'pino';

export interface EntityRef {
  entityId: string;
  /** 1 object, 2 link. */
  entityType: 1 | 2;
}

export interface StateReason {
  code: number;
  [detail: string]: unknown;
}

export interface StateEvent extends EntityRef {
  type: 'state';
  entityName: string;
  stateId: number;
  previousStateId: number;
  reason: StateReason;
  timestamp: number;
}

export interface IncidentEvent extends EntityRef {
  type: 'incident';
  /** `suppressed`/`unsuppressed`: the incident's `suppression` field came or went (maintenance, dependency, manual). */
  action: 'raised' | 'repeated' | 'acknowledged' | 'unacknowledged' | 'cleared' | 'undo-clear' | 'removed' | 'commented' | 'changed' | 'suppressed' | 'unsuppressed';
  /** The incident record as `GET /incidents/:id` shows it. */
  incident: Record<string, unknown>;
  timestamp: number;
}

export interface StatEvent extends EntityRef {
  type: 'stat';
  timestamp: number;
  /** Names of the metrics the payload carried (flattened). */
  metrics: readonly string[];
}

export type LiveEvent = StateEvent | IncidentEvent | StatEvent;

export class EventBus {
  private readonly listeners = new Set<(event: LiveEvent) => void>();

  constructor(private readonly logger?: Logger) {}

  /** Returns the function that unsubscribes. */
  subscribe(listener: (event: LiveEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  publish(event: LiveEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (err) {
        this.logger?.error({ err, event: event.type }, 'event listener failed');
      }
    }
  }
}
