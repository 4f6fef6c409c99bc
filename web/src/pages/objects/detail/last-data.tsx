// The object's latest measurements: metric → value with its time. GET /stat holds only the
// last payload pushed (a check's run replaces a pushed one), so the latest point of every
// metric with history (GET /last?length=1) fills in the rest; the newer value wins.
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorBanner } from '../../../components/error-banner';
import { formatTime } from '../../../components/format';
import { useEntityRoute, type RouteOf } from './entity';

interface Row {
  metric: string;
  value: unknown;
  time: number | undefined;
}

/** Nested keys become dotted metric names, as the server flattens them. */
function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, value);
}

async function loadRows(r: RouteOf, id: string): Promise<Row[]> {
  const [stat, last] = await Promise.all([
    api.GET(r('/node/api/objects/{id}/stat'), { params: { path: { id } } }).then(data),
    api.GET(r('/node/api/objects/{id}/last'), { params: { path: { id }, query: { length: 1 } } }).then(data),
  ]);
  const rows = new Map<string, Row>();
  for (const s of last) {
    const p = s.dps[s.dps.length - 1];
    if (p) rows.set(s.metric, { metric: s.metric, value: p[1], time: p[0] });
  }
  const { timestamp, ...payload } = stat as Record<string, unknown>;
  const flat = new Map<string, unknown>();
  flatten(payload, '', flat);
  const at = typeof timestamp === 'number' ? timestamp : undefined;
  for (const [metric, value] of flat) {
    const had = rows.get(metric);
    if (!had || had.time === undefined || (at !== undefined && at >= had.time)) rows.set(metric, { metric, value, time: at });
  }
  return [...rows.values()].sort((a, b) => a.metric.localeCompare(b.metric));
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

const COLUMNS: Column<Row>[] = [
  { key: 'metric', header: 'Metric', cell: (r) => r.metric },
  { key: 'value', header: 'Value', cell: (r) => show(r.value), cellClassName: () => 'obj-value' },
  { key: 'time', header: 'Time', cell: (r) => formatTime(r.time) },
];

export function LastData({ id, tick }: { id: string; tick: number }) {
  const r = useEntityRoute();
  const { data: rows, error, loading } = useApi(() => loadRows(r, id), [r, id, tick]);
  return (
    <section className="panel" aria-labelledby="obj-last-data">
      <h2 id="obj-last-data">Last data</h2>
      <ErrorBanner error={error} />
      {rows === undefined && loading ? <p className="loading">Loading…</p> : null}
      {rows && rows.length === 0 ? <p className="muted">No data received yet.</p> : null}
      {rows && rows.length > 0 ? (
        <DataTable label="Last data" wrapClassName="obj-scroll" columns={COLUMNS} rows={rows} rowKey={(r) => r.metric} />
      ) : null}
    </section>
  );
}
