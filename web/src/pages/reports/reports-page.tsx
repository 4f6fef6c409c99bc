// Reports: objects chosen by name, their metrics (and formulas over them) as charts, one range
// and downsample for all; "Download XLSX" asks POST /reports/prop-inventory/excel and saves
// the file. A refused item is named by the chart it came from.
import { useState } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { useAction } from '../../components/use-action';
import { fromLocalInput } from '../../components/time-input';
import { EntityPicker } from './entity-picker';
import { ReportEntityCard } from './report-entity-card';
import { fetchReport, planCharts, type ReportEntity } from './report-items';
import { lastRange, ReportRange, type RangeDraft } from './report-range';
import { useSavedFile } from './use-saved-file';
import './reports.css';

const MAX_ITEMS = 50;

export default function ReportsPage() {
  const [entities, setEntities] = useState<ReportEntity[]>([]);
  const [range, setRange] = useState<RangeDraft>(() => ({ ...lastRange(86_400_000), interval: '5m', agg: 'avg' }));
  const download = useAction();
  const saved = useSavedFile();

  const from = fromLocalInput(range.from);
  const to = fromLocalInput(range.to);
  const charts = from !== undefined && to !== undefined ? planCharts(entities, { from, to, downsample: `${range.interval}-${range.agg}` }) : [];
  const count = planCharts(entities, { from: 0, to: 1, downsample: '' }).length;
  const problem =
    count === 0 ? 'Add an object and tick a metric (or write a formula) to chart.'
    : count > MAX_ITEMS ? `At most ${MAX_ITEMS} charts per report (now ${count}).`
    : from === undefined || to === undefined ? 'Set the start and the end of the range.'
    : from >= to ? 'The range must start before it ends.'
    : undefined;


  const update = (id: string, next: ReportEntity) => setEntities((list) => list.map((e) => (e.id === id ? next : e)));

  return (
    <section aria-labelledby="reports-title">
      <h1 id="reports-title">Reports</h1>
      <p className="muted">An XLSX file with one line chart per metric or formula, and the numbers behind them.</p>
      <div className="panel">
        <h2>Objects</h2>
        <EntityPicker
          chosen={new Set(entities.map((e) => e.id))}
          onAdd={(o) => setEntities((list) => [...list, { id: o.id, name: o.name, metrics: [], formulas: [] }])}
        />
      </div>
      {entities.map((e) => (
        <ReportEntityCard key={e.id} entity={e} onChange={(next) => update(e.id, next)} onRemove={() => setEntities((list) => list.filter((x) => x.id !== e.id))} />
      ))}
      <ReportRange value={range} onChange={setRange} />
      <div className="row rep-actions">
        <button
          type="button"
          className="primary"
          onClick={() => void download.run(async () => {
            const { blob, fileName } = await fetchReport(charts);
            saved.save(blob, fileName);
          })}
          disabled={download.busy || problem !== undefined}
        >
          {download.busy ? 'Preparing…' : 'Download XLSX'}
        </button>
        <span className="muted" role="status">{problem ?? `${count} chart${count === 1 ? '' : 's'}`}</span>
      </div>
      <ErrorBanner error={download.error} />
      {saved.file ? (
        <p className="rep-saved">
          <a ref={saved.link} href={saved.file.url} download={saved.file.fileName}>{saved.file.fileName}</a>
          <span className="muted"> ({Math.ceil(saved.file.size / 1024)} KB) saved — click to save again.</span>
        </p>
      ) : null}
    </section>
  );
}
