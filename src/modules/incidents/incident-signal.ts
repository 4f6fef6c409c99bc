// The engine's word to the incidents service: a condition (a problem state, or one incident
// condition) of an entity holds or has stopped holding. The service decides what that means
// for the records: raise a new incident, count a repeat, reopen a cleared one, or clear.
export interface IncidentSignal {
  entityId: string;
  entityType: 1 | 2;
  /** One active incident per entity and key: 'state' (type 1) or `condition:<id>` (type 2). */
  key: string;
  type: 1 | 2;
  /** true: the condition holds (raise, or repeat); false: it stopped (clear if not cleared). */
  active: boolean;
  /** The condition held already and only its level changed (Alarm → Down, say): not counted as a repeat. */
  levelChange?: boolean;
  /** Incident level id; set when active. */
  level?: string;
  text?: string;
  /** JSON text of the measurements that led to the signal. */
  data?: string;
  reason?: { code: number; rootCause: { entityId: string; entityType: number; entityName: string } };
  timestamp: number;
}
