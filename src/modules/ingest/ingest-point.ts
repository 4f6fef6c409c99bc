// What the decoders (prometheus-write.ts, opentsdb-put.ts) hand the ingest service: one
// measurement, named (metric-name.ts) and checked for shape, its entity not yet looked up.
export interface IngestPoint {
  /** The entity label's value: an entity id, else an object's discovery_id. */
  entity: string;
  metric: string;
  /** Milliseconds since 1970. */
  timestamp: number;
  value: number;
}
