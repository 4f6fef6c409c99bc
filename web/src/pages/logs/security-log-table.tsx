// The records of one security log page: who, what, how and from where, with the request line
// and client behind a disclosure.
import { formatTime } from '../../components/format';
import type { SecurityRecord } from './security-log-query';

export function SecurityLogTable({ records }: { records: SecurityRecord[] }) {
  return (
    <div className="table-wrap">
      <table className="log-table" aria-label="Security log records">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">User</th>
            <th scope="col">Event</th>
            <th scope="col">Channel</th>
            <th scope="col">Address</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {records.map((r) => (
            <tr key={r.id}>
              <td data-label="Time" className="log-nowrap">{formatTime(Date.parse(r.timestamp))}</td>
              <td data-label="User">{r.message.login || <span className="muted">—</span>}</td>
              <td data-label="Event">
                <span className={`log-level ${r.level}`} title={`${r.level}, severity ${r.severity}`}>{r.eventDescription}</span>
              </td>
              <td data-label="Channel">{r.extra.channel}{r.extra.source ? <span className="muted"> ({r.extra.source})</span> : null}</td>
              <td data-label="Address" className="log-break">{r.message.remoteAddress}</td>
              <td data-label="Details" className="log-payload log-details">
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
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
