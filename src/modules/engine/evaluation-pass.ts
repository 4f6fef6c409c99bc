// One evaluation pass: the given entities and those marked dirty, each evaluated once, then
// what changed committed together. A pass over many entities, each bounded (core/safe-regex.ts
// caps `_m`), may still add up: it yields to other requests whenever it has worked SLICE_MS, as
// scans do. Entities marked dirty while it waits stay dirty for the next pass; one deleted
// meanwhile is skipped. The caller runs passes one at a time (the engine's queue).
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { SLICE_MS } from '../../core/scan-page.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { OwnChange } from './engine-types.js';

export interface PassDeps {
  entity: (id: string) => MemEntity | undefined;
  /** Entities marked for the next pass; the pass takes (and clears) them. */
  dirty: Set<string>;
  evaluate: (entity: MemEntity, now: number, signals: IncidentSignal[]) => OwnChange | undefined;
  commit: (changes: OwnChange[], signals: IncidentSignal[], now: number) => Promise<void>;
  /** A monotonic clock for the slices (performance.now by default). */
  elapsed?: () => number;
  yieldNow?: () => Promise<unknown>;
  /** Told how long each pass took, its commit included (self-metrics). */
  onPass?: (ms: number) => void;
}

export function createPass({ entity, dirty, evaluate, commit, elapsed = () => performance.now(), yieldNow = yieldToEventLoop, onPass }: PassDeps) {
  return async function pass(ids: Iterable<string>, now: number): Promise<void> {
    const started = elapsed();
    const signals: IncidentSignal[] = [];
    const changes: OwnChange[] = [];
    const seen = new Set<string>();
    const queue = [...ids, ...dirty];
    dirty.clear();
    let sliceStart = elapsed();
    for (const id of queue) {
      if (seen.has(id)) continue;
      seen.add(id);
      const e = entity(id);
      if (!e) continue;
      const c = evaluate(e, now, signals);
      if (c) changes.push(c);
      if (elapsed() - sliceStart > SLICE_MS) {
        await yieldNow();
        sliceStart = elapsed();
      }
    }
    await commit(changes, signals, now);
    onPass?.(elapsed() - started);
  };
}
