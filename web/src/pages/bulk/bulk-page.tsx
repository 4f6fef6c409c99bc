// Bulk operations: a search built from conditions, a preview of the objects it matches, the
// operations to apply to all of them, and Run (POST /bulk/objects) with its progress and
// result (GET /bulk/{bulkId}). The server checks everything first and changes all or nothing.
import { useState } from 'react';
import { useSession } from '../../auth/session';
import { ErrorBanner } from '../../components/error-banner';
import { BulkPreview } from './bulk-preview';
import { BulkResult } from './bulk-result';
import { useCatalogLists } from './catalog-lists';
import { bulkOf, newOp, opLabel, type OpDraft } from './operations';
import { OperationsEditor } from './operations-editor';
import { SearchBuilder } from './search-builder';
import { criteriaOf, newCondition, type Condition } from './search-criteria';
import { useBulkRun } from './use-bulk-run';
import './bulk.css';

export default function BulkPage() {
  const { can } = useSession();
  const lists = useCatalogLists();
  const tags = lists.data?.tags ?? [];
  const [rows, setRows] = useState<Condition[]>(() => [newCondition()]);
  const [match, setMatch] = useState<'all' | 'any'>('all');
  const [ops, setOps] = useState<OpDraft[]>(() => [newOp('property')]);
  const [preview, setPreview] = useState<{ search: Record<string, unknown>; n: number }>();
  const [invalid, setInvalid] = useState<string>();
  const bulk = useBulkRun();

  const criteria = criteriaOf(rows, match);
  const operations = bulkOf(ops);
  const allowed = can('run-bulks') && can('manage-objects');

  function showPreview() {
    if ('error' in criteria) return setInvalid(criteria.error);
    setInvalid(undefined);
    setPreview((p) => ({ search: criteria.search, n: (p?.n ?? 0) + 1 }));
  }

  function run() {
    if ('error' in criteria) return setInvalid(criteria.error);
    if ('error' in operations) return setInvalid(operations.error);
    setInvalid(undefined);
    void bulk.run(criteria.search, operations.bulk, ops.map((o) => opLabel(o.kind)));
  }

  return (
    <section aria-labelledby="bulk-title">
      <h1 id="bulk-title">Bulk operations</h1>
      {!allowed ? <p className="error">Running a bulk needs the rights run-bulks and manage-objects; you may still preview.</p> : null}
      <ErrorBanner error={lists.error} />
      <form className="panel" aria-label="Search" onSubmit={(e) => { e.preventDefault(); showPreview(); }}>
        <SearchBuilder rows={rows} match={match} tags={tags} classes={lists.data?.classes ?? []} onRows={setRows} onMatch={setMatch} />
        <details className="bulk-json">
          <summary>Search as JSON</summary>
          <pre>{'search' in criteria ? JSON.stringify(criteria.search, null, 2) : criteria.error}</pre>
        </details>
        <button type="submit">Preview</button>
      </form>
      {preview ? <BulkPreview key={`${preview.n}:${JSON.stringify(preview.search)}`} search={preview.search} tags={tags} /> : null}
      <div className="panel">
        <OperationsEditor ops={ops} tags={tags} onChange={setOps} />
        {invalid ? <div className="error" role="alert">{invalid}</div> : null}
        <div className="row bulk-actions">
          <button type="button" className="primary" onClick={run} disabled={bulk.running || !allowed || rows.length === 0}>
            {bulk.running ? 'Running…' : 'Run'}
          </button>
          <span className="muted">
            {rows.length === 0 ? 'Add a condition first: a bulk without one would change every object.' : 'Changes every matching object you may change, or none if any change is refused.'}
          </span>
        </div>
        <ErrorBanner error={bulk.error} />
      </div>
      <BulkResult status={bulk.status} running={bulk.running} />
    </section>
  );
}
