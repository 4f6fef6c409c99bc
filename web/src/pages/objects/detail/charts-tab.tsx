// Charts: pick metrics and a range, draw their history (uPlot, loaded with this tab only) with
// the annotations of the range; click a chart to annotate that moment; edit or delete below.
import { useEffect, useMemo, useState } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { fromLocalInput, toLocalInput } from '../../../components/time-input';
import { AnnotationDialog } from './annotation-dialog';
import { AnnotationList } from './annotation-list';
import { ChartControls, type RangeChoice } from './chart-controls';
import { downsampleFor, PRESETS } from './chart-range';
import { HistoryChart } from './history-chart';
import { MetricPicker } from './metric-picker';
import { loadHistory, type Series } from './history-api';
import type { Annotation } from './types';
import { useEntityRoute } from './entity';

// Annotations drawn on the charts: plenty for one object's range; the list below pages them all.
const DRAWN = 500;

export default function ChartsTab({ id }: { id: string }) {
  const r = useEntityRoute();
  const metrics = useApi(() => api.GET(r('/node/api/objects/{id}/stat/metrics'), { params: { path: { id } } }).then(data), [id]);
  const [chosen, setChosen] = useState<string[] | undefined>();
  const [range, setRange] = useState<RangeChoice>(() => ({ preset: '1h', from: toLocalInput(Date.now() - 3_600_000), to: toLocalInput(Date.now()), downsample: 'auto' }));
  const [now, setNow] = useState(() => Date.now());
  const [tick, setTick] = useState(0);
  const [dialog, setDialog] = useState<{ at: number; annotation?: Annotation } | undefined>();

  // The first metric is charted until the operator picks.
  useEffect(() => {
    if (chosen === undefined && metrics.data) setChosen(metrics.data.slice(0, 1));
  }, [metrics.data, chosen]);

  const { from, to } = useMemo(() => {
    const preset = PRESETS.find((p) => p.id === range.preset);
    if (preset) return { from: now - preset.ms, to: now };
    return { from: fromLocalInput(range.from) ?? now - 3_600_000, to: fromLocalInput(range.to) ?? now };
  }, [range, now]);
  const downsample = downsampleFor(range.downsample, to - from);
  const picked = chosen ?? [];

  const history = useApi(async (): Promise<Series[]> => {
    if (picked.length === 0 || to < from) return [];
    const query = { metrics: picked.join(','), from: String(from), to: String(to), ...(downsample ? { downsample } : {}) };
    return loadHistory(r, id, query);
  }, [id, picked.join(','), from, to, downsample]);
  const drawn = useApi(
    () => api.GET('/node/api/history-annotations', { params: { query: { from, to, entityId: id, limit: DRAWN } } }).then(data),
    [id, from, to, tick],
  );
  const changed = () => setTick((t) => t + 1);
  const refresh = () => {
    setNow(Date.now());
    metrics.reload();
  };

  return (
    <div>
      <ChartControls value={range} onChange={setRange} onRefresh={refresh} effective={downsample} />
      <ErrorBanner error={metrics.error ?? history.error ?? drawn.error} />
      {to < from ? <p className="error">The range ends before it starts.</p> : null}
      {metrics.data && metrics.data.length === 0 ? <p className="muted">This object has no metric with history yet.</p> : null}
      {metrics.data && metrics.data.length > 0 ? <MetricPicker metrics={metrics.data} chosen={picked} onChange={setChosen} /> : null}
      <div className="row">
        <button type="button" onClick={() => setDialog({ at: Math.min(Date.now(), to) })}>
          Add annotation
        </button>
      </div>
      {history.loading && history.data === undefined ? <p className="loading">Loading…</p> : null}
      {(history.data ?? []).map((s) =>
        s.dps.length > 0 ? (
          <HistoryChart key={s.metric} series={s} from={from} to={to} annotations={drawn.data ?? []} onPick={(at) => setDialog({ at })} />
        ) : (
          <p key={s.metric} className="muted">
            {s.metric}: no points in this range.
          </p>
        ),
      )}
      <AnnotationList entityId={id} from={from} to={to} tick={tick} onEdit={(a) => setDialog({ at: a.timestamp, annotation: a })} onChanged={changed} />
      {dialog ? (
        <AnnotationDialog
          entityId={id}
          at={dialog.at}
          annotation={dialog.annotation}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            changed();
          }}
        />
      ) : null}
    </div>
  );
}
