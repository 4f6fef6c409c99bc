// The event log (GET /event-log): SNMP traps and MQTT messages received, searched by type,
// time range and a JSON filter, sorted, and read a page at a time.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ErrorBanner } from '../../components/error-banner';
import { EventLogForm } from './event-log-form';
import { EMPTY_DRAFT, eventLogQuery, type EventLogDraft } from './event-log-query';
import { EventLogTable } from './event-log-table';
import { Pager } from './pager';
import './logs.css';

export default function EventLogPage() {
  const [applied, setApplied] = useState<EventLogDraft>(EMPTY_DRAFT);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(50);
  const { data: rows, error, loading, reload } = useApi(
    async () => data(await api.GET('/node/api/event-log', { params: { query: eventLogQuery(applied, page, pageSize) } })),
    [applied, page, pageSize],
  );
  // One more than a page was asked for: its presence says there is a next page.
  // After a refused search the previous page is not shown as if it were its answer.
  const records = error ? [] : rows?.slice(0, pageSize) ?? [];
  const hasNext = !error && (rows?.length ?? 0) > pageSize;

  return (
    <section aria-labelledby="event-log-title">
      <div className="row">
        <h1 id="event-log-title">Event log</h1>
        <span className="spacer" />
        <button type="button" onClick={reload} disabled={loading}>Refresh</button>
      </div>
      <EventLogForm
        initial={applied}
        onApply={(d) => {
          setApplied(d);
          setPage(0);
          // The same search again still asks the server (new records may have come).
          if (d === applied) reload();
        }}
      />
      <ErrorBanner error={error} />
      {loading && !rows ? <p className="loading">Loading…</p> : null}
      {rows && records.length === 0 && !error ? (
        <p className="log-empty muted">{page > 0 ? 'No more records.' : 'No records match.'}</p>
      ) : null}
      {records.length > 0 ? <EventLogTable records={records} /> : null}
      <Pager
        label="Event log pages"
        page={page}
        pageSize={pageSize}
        hasNext={hasNext}
        shown={records.length}
        onPage={setPage}
        onPageSize={(n) => { setPageSize(n); setPage(0); }}
      />
    </section>
  );
}
