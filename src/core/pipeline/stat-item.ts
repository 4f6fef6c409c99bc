// What the stat intake passes along its stages (intake/stat-intake.ts is the pipeline's entry
// and names them): one entity's payload, validated and flattened. It lives in core so the
// listeners above the intake and the modules below it (history, engine, probes) import it
// downward, and the intake depends on none of them for its own vocabulary.
import type { ScalarValue } from '../metrics/flatten.js';

export interface StatItem {
  entityId: string;
  entityType: 1 | 2;
  timestamp: number;
  payload: Record<string, unknown>;
  numbers: ReadonlyArray<[string, number]>;
  values: Record<string, ScalarValue>;
  /**
   * A stat rule's `extend`: `payload` (what came, what history and the journal take) is merged
   * into the last payload, and `stored` is that union, kept as the last payload.
   */
  extend?: boolean;
  stored?: Record<string, unknown>;
}

/** Where producers inside the server (probes) hand measurements: the stat intake's push. */
export interface StatSink {
  /** Resolves once the items are journaled and evaluated. */
  push(items: StatItem[]): Promise<void>;
}

/** The engine's side of intake: told which entities got which data, once it is stored. */
export interface DataListener {
  dataArrived(items: readonly StatItem[]): Promise<void>;
  /** Data came for these entities and was dropped on purpose (maintenance without collection). */
  dataDropped?(entityIds: readonly string[]): void;
}
