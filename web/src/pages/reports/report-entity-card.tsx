// One entity of the report: its metrics with history (GET /objects/{id}/stat/metrics) to tick,
// one chart each, and formulas over them, one chart each.
import { useState } from 'react';
import { Link } from 'wouter';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import type { ReportEntity } from './report-items';

/** Past this many metrics a filter box helps find one. */
const FILTER_FROM = 12;

export function ReportEntityCard({ entity, onChange, onRemove }: {
  entity: ReportEntity;
  onChange: (e: ReportEntity) => void;
  onRemove: () => void;
}) {
  const metrics = useApi(async () => data(await api.GET('/node/api/objects/{id}/stat/metrics', { params: { path: { id: entity.id } } })), [entity.id]);
  const [filter, setFilter] = useState('');
  const list = metrics.data ?? [];
  const shown = filter ? list.filter((m) => m.toLowerCase().includes(filter.toLowerCase())) : list;

  const toggle = (m: string, on: boolean) =>
    onChange({ ...entity, metrics: on ? [...entity.metrics, m] : entity.metrics.filter((x) => x !== m) });
  const setFormula = (i: number, text: string) => onChange({ ...entity, formulas: entity.formulas.map((f, j) => (j === i ? text : f)) });

  return (
    <section className="panel rep-entity" aria-label={`Charts of ${entity.name}`}>
      <header className="row">
        <h3><Link href={`/objects/${entity.id}`}>{entity.name}</Link> <span className="muted">#{entity.id}</span></h3>
        <span className="spacer" />
        <button type="button" className="danger" onClick={onRemove} aria-label={`Remove ${entity.name}`}>Remove</button>
      </header>
      <ErrorBanner error={metrics.error} />
      {metrics.loading && !metrics.data ? <p className="muted">Loading metrics…</p> : null}
      {metrics.data && list.length === 0 ? <p className="muted">No metric of this object has history yet.</p> : null}
      {list.length > FILTER_FROM ? (
        <Field label={`Filter metrics of ${entity.name}`}>
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </Field>
      ) : null}
      {shown.length > 0 ? (
        <fieldset className="rep-metrics">
          <legend>Metrics (one chart each)</legend>
          {shown.map((m) => (
            <label key={m} className="rep-check">
              <input type="checkbox" checked={entity.metrics.includes(m)} onChange={(e) => toggle(m, e.target.checked)} />
              <span>{m}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {entity.formulas.map((f, i) => (
        <div className="row rep-formula" key={i}>
          <Field label={`Formula ${i + 1} of ${entity.name}`} hint="metrics in double braces with + - * / and parentheses, e.g. ({{rx}}+{{tx}})*8">
            <input type="text" value={f} spellCheck={false} onChange={(e) => setFormula(i, e.target.value)} />
          </Field>
          <button type="button" className="icon" aria-label={`Remove formula ${i + 1} of ${entity.name}`} onClick={() => onChange({ ...entity, formulas: entity.formulas.filter((_, j) => j !== i) })}>×</button>
        </div>
      ))}
      <button type="button" className="link" onClick={() => onChange({ ...entity, formulas: [...entity.formulas, entity.metrics[0] ? `{{${entity.metrics[0]}}}` : ''] })}>
        Add a formula chart
      </button>
    </section>
  );
}
