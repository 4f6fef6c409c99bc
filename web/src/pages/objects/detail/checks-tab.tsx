// Checks: the object's checks with their latest results, and the dialog that adds or edits
// one. Results arrive with live 'stat' events (statTick); until a new check's first run, the
// list is also polled, in case the live stream is not connected.
import { useEffect, useState } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { DataTable, type Column } from '../../../components/data-table';
import { ErrorBanner } from '../../../components/error-banner';
import { CheckDialog } from './check-dialog';
import { CheckCells } from './check-row';
import type { Check } from './types';
import { useEntityRoute } from './entity';

const POLL_MS = 3000;

// The headers; CheckCells draws each row (its cells share the row's pending action).
const COLUMNS: Column<Check>[] = ['Name', 'Type', 'Target', 'Interval', 'Enabled', 'Agent', 'Available', 'Latency', 'Error', 'Last run', 'Actions'].map((h) => ({ key: h, header: h }));

export function ChecksTab({ id, statTick }: { id: string; statTick: number }) {
  const r = useEntityRoute();
  const { data: checks, error, loading, reload } = useApi(() => api.GET(r('/node/api/objects/{id}/checks'), { params: { path: { id } } }).then(data), [id, statTick]);
  const [editing, setEditing] = useState<Check | 'new' | undefined>();
  const waiting = (checks ?? []).some((c) => c.enabled && !c.agent && c.lastResult === null);
  useEffect(() => {
    if (!waiting) return;
    const t = setInterval(reload, POLL_MS);
    return () => clearInterval(t);
  }, [waiting, reload]);

  return (
    <div>
      <div className="row">
        <h2 className="spacer">Checks</h2>
        <button type="button" className="primary" onClick={() => setEditing('new')}>
          Add check
        </button>
        <button type="button" onClick={reload}>
          Refresh
        </button>
      </div>
      <ErrorBanner error={error} />
      {checks === undefined && loading ? <p className="loading">Loading…</p> : null}
      {checks && checks.length === 0 ? <p className="muted">No checks. Add an HTTP, TCP, ping, DNS or SNMP check to have the server (or a remote agent) probe this object.</p> : null}
      {checks && checks.length > 0 ? (
        <DataTable
          label="Checks"
          className="obj-cards"
          columns={COLUMNS}
          rows={checks}
          rowKey={(c) => c.propertyId}
          rowCells={(c) => <CheckCells id={id} c={c} onEdit={() => setEditing(c)} onChanged={reload} />}
        />
      ) : null}
      {editing ? (
        <CheckDialog
          id={id}
          check={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
          onSaved={() => {
            setEditing(undefined);
            reload();
          }}
        />
      ) : null}
    </div>
  );
}
