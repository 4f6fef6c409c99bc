// The records of one security log page: who, what, how and from where, with the request line
// and client behind a disclosure.
import { formatTime } from '../../components/format';
import { DataTable, type Column } from '../../components/data-table';
import type { SecurityRecord } from './security-log-query';

const COLUMNS: Column<SecurityRecord>[] = [
  { key: 'time', header: 'Time', cellClassName: () => 'log-nowrap', cell: (r) => formatTime(Date.parse(r.timestamp)) },
  { key: 'user', header: 'User', cell: (r) => r.message.login || <span className="muted">—</span> },
  {
    key: 'event',
    header: 'Event',
    cell: (r) => <span className={`log-level ${r.level}`} title={`${r.level}, severity ${r.severity}`}>{r.eventDescription}</span>,
  },
  { key: 'channel', header: 'Channel', cell: (r) => <>{r.extra.channel}{r.extra.source ? <span className="muted"> ({r.extra.source})</span> : null}</> },
  { key: 'address', header: 'Address', cellClassName: () => 'log-break', cell: (r) => r.message.remoteAddress },
  {
    key: 'details',
    header: 'Details',
    cellClassName: () => 'log-payload log-details',
    cell: (r) => (
      <details>
        <summary>{r.message.message || r.eventClassId}</summary>
        <pre>{[
          `request: ${r.message.connection.request.request}`,
          `host: ${r.message.connection.request.hostname}`,
          `client: ${r.message.connection.request.userAgent}`,
          `remote: ${r.message.connection.remoteHost || r.message.connection.remoteAddress}`,
          `local: ${r.message.connection.localAddress}:${r.message.connection.localPort}`,
          `server: ${r.host}`,
        ].join('\n')}</pre>
      </details>
    ),
  },
];

export function SecurityLogTable({ records }: { records: SecurityRecord[] }) {
  return <DataTable className="log-table" label="Security log records" columns={COLUMNS} rows={records} rowKey={(r) => r.id} labelCells />;
}
