// One check's cells in the checks table (its row drawn by this component: the cells share the
// row's action), with its latest result; edit, enable/disable (PATCH the property) and delete.
import { api } from '../../../api/client';
import { ErrorBanner } from '../../../components/error-banner';
import { formatTime } from '../../../components/format';
import { useAction } from '../../../components/use-action';
import { ConfirmButton } from './confirm-button';
import type { Check } from './types';
import { useEntityRoute } from './entity';

/** A check's metrics are `<prefix>.<name>`, or the bare name without a prefix. */
function result(c: Check, metric: string): number | string | undefined {
  return c.lastResult?.values[c.prefix ? `${c.prefix}.${metric}` : metric];
}

function ms(n: number): string {
  return n % 1000 === 0 ? `${n / 1000} s` : `${n} ms`;
}

export function CheckCells({ id, c, onEdit, onChanged }: { id: string; c: Check; onEdit: () => void; onChanged: () => void }) {
  const r = useEntityRoute();
  const action = useAction();
  const path = { id, propId: c.propertyId };
  const run = async (change: () => Promise<unknown>) => {
    if (await action.run(change)) onChanged();
  };
  const toggle = () => {
    const value = { ...c.definition, enabled: !c.enabled };
    void run(() => api.PATCH(r('/node/api/objects/{id}/props/{propId}'), { params: { path }, body: { value } }));
  };
  const remove = () => void run(() => api.DELETE(r('/node/api/objects/{id}/props/{propId}'), { params: { path } }));

  const available = result(c, 'available');
  const latency = result(c, 'latency');
  const failure = result(c, 'error');
  return (
    <>
      <td data-label="Name">{c.name}</td>
      <td data-label="Type">{c.type}</td>
      <td data-label="Target" className="obj-value">{c.target}</td>
      <td data-label="Interval">{ms(c.intervalMs)}</td>
      <td data-label="Enabled">{c.enabled ? 'yes' : 'no'}</td>
      <td data-label="Agent">{c.agent ?? <span className="muted">server</span>}</td>
      <td data-label="Available">
        {available === undefined ? (
          <span className="muted">waiting</span>
        ) : (
          <span className={`obj-avail ${Number(available) === 1 ? 'up' : 'down'}`}>{Number(available) === 1 ? 'up' : 'down'} ({String(available)})</span>
        )}
      </td>
      <td data-label="Latency">{typeof latency === 'number' ? `${Math.round(latency * 10) / 10} ms` : '—'}</td>
      <td data-label="Error" className="obj-value">
        {failure ? String(failure) : ''}
        <ErrorBanner error={action.error} />
      </td>
      <td data-label="Last run">{c.lastResult?.timestamp ? formatTime(c.lastResult.timestamp) : c.agent ? 'by agent' : '—'}</td>
      <td className="obj-actions">
        <button type="button" onClick={onEdit} aria-label={`Edit check ${c.name}`}>
          Edit
        </button>
        <button type="button" onClick={toggle} aria-label={`${c.enabled ? 'Disable' : 'Enable'} check ${c.name}`}>
          {c.enabled ? 'Disable' : 'Enable'}
        </button>
        <ConfirmButton label="Delete" subject={`check ${c.name}`} onConfirm={remove} />
      </td>
    </>
  );
}
