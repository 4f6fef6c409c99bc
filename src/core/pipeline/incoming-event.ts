// What the event intake (intake/event-intake.ts) passes: a trap or an MQTT message, and the
// entity it is about when one is known. In core so the event log (a module) and the receivers
// (intake) both import it downward.
import type { EventFacts } from '../events/event-values.js';

export type EventKind = 'snmp-trap' | 'mqtt-message';

/** The fields of a catalog entity an event carries (a MemEntity fits). */
export interface EventEntity {
  id: string;
  entityType: 1 | 2;
  name: string;
}

export interface IncomingEvent {
  type: EventKind;
  /** Which receiver took it, e.g. "snmp-trap@host:162". */
  agentId: string;
  timestamp: number;
  payload: Record<string, unknown>;
  /** The entity the event is about, when one is known. */
  entity?: EventEntity;
}

/** The engine's side: an entity's latest event changed. */
export interface EventListener {
  eventArrived(entityId: string, event: EventFacts): Promise<void>;
}
