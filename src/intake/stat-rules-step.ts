// The step of the intake path that applies entities' stat rules (core/stat-rules) to a batch
// before it is journaled, so HTTP and MQTT pushes alike go through them and what is journaled
// is what was decided (a replay does not run the rules again). An entity without rules costs
// one map lookup. Items of one entity in a batch see each other: the second reads the first's
// values as {{current.x}}, as if they had come in separate batches.
import type { Logger } from 'pino';
import { applyStatRules, compileStatRules } from '../core/stat-rules/apply-stat-rules.js';
import { mergePayload } from '../core/stat-rules/merge-payload.js';
import { flattenPayload, PayloadError, type ScalarValue } from '../core/metrics/flatten.js';
import type { Catalog } from '../modules/catalog/catalog.js';
import type { HistoryService } from '../modules/history/history-service.js';
import type { StatItem } from '../core/pipeline/stat-item.js';

type Values = Record<string, ScalarValue>;

export function createStatRulesStep({ catalog, history, clock, logger }: { catalog: Catalog; history: HistoryService; clock: () => number; logger: Logger }) {
  return function applyRules(items: StatItem[]): StatItem[] {
    let out: StatItem[] | undefined;
    /** What earlier items of this batch left as each ruled entity's last values and payload. */
    let seen: Map<string, { latest: Values; payload: Record<string, unknown> }> | undefined;
    for (let k = 0; k < items.length; k++) {
      const item = items[k]!;
      const doc = catalog.setting(item.entityId, 'statRules')?.value;
      if (!doc || doc.length === 0) {
        out?.push(item);
        continue;
      }
      out ??= items.slice(0, k);
      seen ??= new Map();
      const stored = history.lastData(item.entityId);
      const before = seen.get(item.entityId) ?? (stored ? { latest: stored.latest, payload: stored.payload } : undefined);
      const outcome = applyStatRules(compileStatRules(doc), { payload: item.payload, values: item.values, current: before?.latest, now: clock() });
      if (outcome.drop) continue;
      let next = item;
      try {
        if (outcome.changed) next = { ...item, payload: outcome.payload, ...flattenPayload(outcome.payload) };
        if (outcome.extend) {
          const merged = mergePayload(before?.payload, next.payload);
          // The union must still be a payload a push could carry (metric count, colliding names).
          flattenPayload(merged);
          next = { ...next, extend: true, stored: merged };
        }
      } catch (err) {
        if (!(err instanceof PayloadError)) throw err;
        logger.warn({ entityId: item.entityId, err: err.message }, 'stat rules made a payload that cannot be stored; stored as it came');
        next = item;
      }
      out.push(next);
      seen.set(item.entityId, {
        latest: Object.assign(Object.create(null) as Values, before?.latest, next.values),
        payload: next.stored ?? next.payload,
      });
    }
    return out ?? items;
  };
}
