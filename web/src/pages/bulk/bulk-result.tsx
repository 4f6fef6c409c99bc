// A bulk's progress while it runs and its outcome once finished.
import type { BulkStatus } from './use-bulk-run';

export function BulkResult({ status, running }: { status: BulkStatus | undefined; running: boolean }) {
  if (!status && !running) return null;
  if (!status || !status.finished) {
    return (
      <div className="panel bulk-result" role="status" aria-live="polite">
        <progress aria-label="Bulk progress" />
        <span> Running… {status ? `${status.matched} matched so far` : 'starting'}</span>
      </div>
    );
  }
  const failed = status.errors.length > 0;
  return (
    <div className={`panel bulk-result ${failed ? 'bulk-failed' : 'bulk-done'}`} role="status" aria-label="Bulk result">
      <strong>{failed ? 'Finished with errors: nothing was changed' : 'Finished'}</strong>
      <dl className="bulk-counts">
        <dt>Matched</dt><dd>{status.matched}</dd>
        <dt>Changed</dt><dd>{status.changed}</dd>
        <dt>Errors</dt><dd>{status.errors.length}</dd>
      </dl>
      {failed ? (
        <ul className="error" role="alert">
          {status.errors.map((e, i) => <li key={i}>{e}</li>)}
        </ul>
      ) : null}
      <small className="muted">bulk {status.bulkId}</small>
    </div>
  );
}
