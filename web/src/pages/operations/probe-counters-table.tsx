// The check scheduler's counters (GET /probes/counters) as a labelled table: one row per
// counter, with what it counts.
import { DataTable, type Column } from '../../components/data-table';
import type { ProbeCounters } from './operations-types';

const ROWS: Array<[keyof ProbeCounters, string, string]> = [
  ['checks', 'Checks', 'checks the server schedules'],
  ['running', 'Running', 'running now'],
  ['waiting', 'Waiting', 'waiting for a free slot'],
  ['started', 'Started', 'started since the server started'],
  ['completed', 'Completed', 'finished with a result'],
  ['failed', 'Failed', 'completed with available 0'],
  ['skipped', 'Skipped', 'due while the same check still ran'],
  ['late', 'Late', 'waited longer than their interval, dropped'],
  ['paused', 'Paused', 'due while their object was disabled'],
];

type Row = (typeof ROWS)[number];

export function ProbeCountersTable({ counters }: { counters: ProbeCounters }) {
  const columns: Column<Row>[] = [
    { key: 'counter', header: 'Counter', cell: ([, label]) => label, rowHeader: true },
    { key: 'value', header: 'Value', className: 'ops-num', cell: ([key]) => counters[key] },
    { key: 'meaning', header: 'Meaning', cellClassName: () => 'muted', cell: ([, , meaning]) => meaning },
  ];
  return <DataTable label="Probe counters" columns={columns} rows={ROWS} rowKey={([key]) => key} />;
}
