// XLSX chart reports: checks every chart request item (naming the item in any refusal), reads
// the history behind each one, computes formulas, and hands the series to the XLSX writer.
//
// Bounds, so that no request can exhaust memory: at most 50 items; at most 100,000 downsample
// buckets per item (refused, not thinned: the chart shows the interval that was asked for);
// at most 1,000,000 points in the whole report; and at most 2,000,000 raw points read per
// metric (a downsample of whole hours reads the hourly rollups instead, whatever the range).
import { HistoryInputError } from '../../core/history/history-error.js';
import { parseDownsample, type DownsampleSpec } from '../../core/history/time-spec.js';
import { FormulaError, metricRef, parseFormula, type Formula } from '../../core/reports/formula.js';
import { badRequest, notFound } from '../../errors.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { HistoryQuery } from '../history/history-query.js';
import type { HistoryService } from '../history/history-service.js';
import type { ChartRequestItem } from './schemas.js';
import { writeReportXlsx, type ReportSeries } from './xlsx/workbook.js';

export const MAX_BUCKETS_PER_ITEM = 100_000;
export const MAX_REPORT_POINTS = 1_000_000;
export const MAX_RAW_POINTS_PER_METRIC = 2_000_000;

const ENTITY_TYPE_NAME: Record<number, string> = { 1: 'an object (1)', 2: 'a link (2)' };

/** An item once checked: what to read and how to title it. */
interface Plan {
  at: string;
  entity: MemEntity;
  from: number;
  to: number;
  spec: DownsampleSpec;
  formula: Formula;
  title: string;
}

const quote = (text: string): string => JSON.stringify(text.length > 60 ? text.slice(0, 60) + '…' : text);

/** `vigil-report-YYYYMMDD-HHmm.xlsx`, in UTC. */
export function reportFileName(now: number): string {
  const iso = new Date(now).toISOString();
  return `vigil-report-${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}-${iso.slice(11, 13)}${iso.slice(14, 16)}.xlsx`;
}

/**
 * Points of several series (ascending by time) combined where all of them have a point at the
 * same time; a result that is not finite (say a division by zero) is left out.
 */
export function combine(formula: Formula, series: ReadonlyArray<ReadonlyArray<readonly [number, number]>>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const n = series.length;
  const at = new Array<number>(n).fill(0);
  const values = new Float64Array(n);
  const first = series[0] ?? [];
  outer: for (const [t, v] of first) {
    values[0] = v;
    for (let k = 1; k < n; k++) {
      const s = series[k]!;
      let i = at[k]!;
      while (i < s.length && s[i]![0] < t) i++;
      at[k] = i;
      if (i === s.length) break outer;
      if (s[i]![0] !== t) continue outer;
      values[k] = s[i]![1];
    }
    const r = formula.evaluate(values);
    if (Number.isFinite(r)) out.push([t, r]);
  }
  return out;
}

export function createReportService({ catalog, history, query }: { catalog: Catalog; history: HistoryService; query: HistoryQuery }) {
  /** Checks one item; throws 400 or 404 naming it. */
  function plan(actor: EntityActor, item: ChartRequestItem, index: number): Plan {
    const at = `[${index}]`;
    if (item.type !== 'line-chart') throw badRequest(`${at}.type: unknown chart type ${quote(item.type)}; expected "line-chart"`);
    if (item.from >= item.to) throw badRequest(`${at}.from: must be before to (from ${item.from}, to ${item.to})`);
    let spec: DownsampleSpec;
    try {
      spec = parseDownsample(item.downsample);
    } catch (err) {
      if (err instanceof HistoryInputError) throw badRequest(`${at}.${err.message}`);
      throw err;
    }
    if (spec.intervalMs !== 'all' && (item.to - item.from) / spec.intervalMs > MAX_BUCKETS_PER_ITEM) {
      throw badRequest(`${at}.downsample: ${quote(item.downsample)} makes more than ${MAX_BUCKETS_PER_ITEM} points between from and to; take a longer interval`);
    }
    const id = String(item.entityId);
    const entity = catalog.entity(id);
    if (!entity || !canSee(actor, entity)) throw notFound(`${at}.entityId: entity ${id}`);
    if (item.entityType !== undefined && item.entityType !== entity.entityType) {
      throw badRequest(`${at}.entityType: entity ${id} is ${ENTITY_TYPE_NAME[entity.entityType]}, not ${item.entityType}`);
    }
    const metric = metricRef(item.metric);
    if (metric === undefined) throw badRequest(`${at}.metric: expected a metric name in double braces like {{cpu.load1}}, got ${quote(item.metric)}`);
    const known = (field: string, name: string) => {
      if (history.seriesId(entity.id, name) === undefined) throw badRequest(`${at}.${field}: unknown metric ${quote(name)} (entity ${id} has no history of it)`);
    };
    known('metric', metric);
    let formula: Formula;
    if (item.formula !== undefined && item.formula.trim() !== '') {
      try {
        formula = parseFormula(item.formula);
      } catch (err) {
        if (err instanceof FormulaError) throw badRequest(`${at}.formula: ${err.message}`);
        throw err;
      }
      for (const name of formula.refs) known('formula', name);
    } else {
      formula = { refs: [metric], evaluate: (v) => v[0]! };
    }
    const shown = item.formula !== undefined && item.formula.trim() !== '' ? item.formula.trim() : metric;
    return { at, entity, from: item.from, to: item.to, spec, formula, title: `${entity.name} — ${shown}` };
  }

  async function read(p: Plan): Promise<Array<[number, number]>> {
    let answers;
    try {
      answers = await query.history(p.entity.id, p.formula.refs, p.from, p.to, p.spec, MAX_RAW_POINTS_PER_METRIC);
    } catch (err) {
      if (err instanceof HistoryInputError) {
        throw badRequest(`${p.at}: more than ${MAX_RAW_POINTS_PER_METRIC} raw points of a metric in this range; `
          + 'take a shorter range, or a downsample interval of whole hours (read from the hourly rollups)');
      }
      throw err;
    }
    return combine(p.formula, answers.map((a) => a.dps));
  }

  return {
    /** The XLSX report of the items, and its file name. */
    async excel(actor: EntityActor, items: readonly ChartRequestItem[], now: number): Promise<{ file: Buffer; fileName: string }> {
      if (items.length === 0) throw badRequest('body: expected at least one chart request item');
      // Every item is checked before any history is read: a bad last item costs nothing.
      const plans = items.map((item, i) => plan(actor, item, i));
      const series: ReportSeries[] = [];
      let total = 0;
      for (const p of plans) {
        const points = await read(p);
        total += points.length;
        if (total > MAX_REPORT_POINTS) {
          throw badRequest(`${p.at}: the report would hold more than ${MAX_REPORT_POINTS} points in all; take longer downsample intervals or fewer items`);
        }
        series.push({ title: p.title, points });
      }
      return { file: writeReportXlsx(series, now), fileName: reportFileName(now) };
    },
  };
}

export type ReportService = ReturnType<typeof createReportService>;
