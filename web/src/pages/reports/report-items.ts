// The chart request items of a report (POST /reports/prop-inventory/excel), built from what
// the page holds, and the saving of the answered file.
import { rawFetch, type paths } from '../../api/client';
import { nameTheItem } from '../../components/item-error';

export type ReportItem = paths['/node/api/reports/prop-inventory/excel']['post']['requestBody']['content']['application/json'][number];

export interface ReportEntity {
  id: string;
  name: string;
  /** Metrics charted one per chart. */
  metrics: string[];
  /** Formulas over the entity's metrics, one chart each. */
  formulas: string[];
}

export interface ReportRange {
  from: number;
  to: number;
  downsample: string;
}

/** An item and how the page names it, so an error about item [i] can say which chart. */
export interface PlannedChart {
  item: ReportItem;
  title: string;
}

/** The first `{{metric}}` a formula names: the item's `metric`, which the API requires. */
export function firstMetric(formula: string): string | undefined {
  return /\{\{\s*([^{}]+?)\s*\}\}/.exec(formula)?.[1];
}

export function planCharts(entities: ReportEntity[], range: ReportRange): PlannedChart[] {
  const out: PlannedChart[] = [];
  const base = { type: 'line-chart', from: range.from, to: range.to, downsample: range.downsample };
  for (const e of entities) {
    for (const m of e.metrics) out.push({ item: { ...base, entityId: e.id, entityType: 1, metric: `{{${m}}}` }, title: `${e.name} — ${m}` });
    for (const f of e.formulas) {
      const text = f.trim();
      if (text === '') continue;
      // A formula naming no metric is sent as it is: the server's 400 says what is wrong.
      const m = firstMetric(text);
      out.push({ item: { ...base, entityId: e.id, entityType: 1, metric: m ? `{{${m}}}` : text, formula: text }, title: `${e.name} — ${text}` });
    }
  }
  return out;
}

/** Asks for the XLSX and returns it with the file name the server gave. */
export async function fetchReport(charts: PlannedChart[]): Promise<{ blob: Blob; fileName: string }> {
  try {
    const res = await rawFetch('/node/api/reports/prop-inventory/excel', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(charts.map((c) => c.item)),
    });
    const disposition = res.headers.get('content-disposition') ?? '';
    const fileName = /filename="?([^";]+)"?/.exec(disposition)?.[1] ?? 'vigil-report.xlsx';
    return { blob: await res.blob(), fileName };
  } catch (err) {
    throw nameTheItem(err, '', charts.map((c) => c.title), 'chart');
  }
}
