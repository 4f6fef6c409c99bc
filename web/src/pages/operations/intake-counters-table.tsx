// The device listeners' counters (GET /intake/counters): one row per listener, one column per
// counter any listener reports (received, stored, refused, shed, …); a counter a listener does
// not keep shows as a dash.
import { DataTable, type Column } from '../../components/data-table';
import type { IntakeCounters } from './operations-types';

/** Known counters first, in the order an operator reads them; others after, by name. */
const ORDER = ['received', 'stored', 'refused', 'shed'];

function columnsOf(counters: IntakeCounters): string[] {
  const all = new Set<string>();
  for (const c of Object.values(counters)) for (const k of Object.keys(c)) all.add(k);
  const rank = (k: string) => (ORDER.includes(k) ? ORDER.indexOf(k) : ORDER.length);
  return [...all].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export function IntakeCountersTable({ counters }: { counters: IntakeCounters }) {
  const listeners = Object.keys(counters).sort();
  if (listeners.length === 0) return <p className="muted">No device listener is running.</p>;
  const columns: Column<string>[] = [
    // The leading space keeps this key apart from any counter's name.
    { key: ' listener', header: 'Listener', cell: (l) => l, rowHeader: true },
    ...columnsOf(counters).map((c): Column<string> => ({ key: c, header: c, className: 'ops-num', cell: (l) => counters[l]![c] ?? '—' })),
  ];
  return <DataTable label="Intake counters" columns={columns} rows={listeners} rowKey={(l) => l} />;
}
