// The event log (GET /event-log): SNMP traps and MQTT messages received, searched by type,
// time range and a JSON filter, sorted, and read a page at a time.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { usePagedApi } from '../../components/paging';
import { EventLogForm } from './event-log-form';
import { EMPTY_DRAFT, eventLogQuery, type EventLogDraft } from './event-log-query';
import { EventLogTable } from './event-log-table';
import { LogResults } from './log-results';
import './logs.css';

export default function EventLogPage() {
  const [applied, setApplied] = useState<EventLogDraft>(EMPTY_DRAFT);
  const list = usePagedApi(
    async (page) => data(await api.GET('/node/api/event-log', { params: { query: eventLogQuery(applied, page) } })),
    { resetOn: [applied], size: 50 },
  );

  return (
    <section aria-labelledby="event-log-title">
      <div className="row">
        <h1 id="event-log-title">Event log</h1>
        <span className="spacer" />
        <button type="button" onClick={list.reload} disabled={list.loading}>Refresh</button>
      </div>
      <EventLogForm
        initial={applied}
        onApply={(d) => {
          setApplied(d);
          // The same search again still asks the server (new records may have come), from its first page.
          if (d === applied) {
            list.setPage(0);
            list.reload();
          }
        }}
      />
      <LogResults list={list} label="Event log pages">
        {(records) => <EventLogTable records={records} />}
      </LogResults>
    </section>
  );
}
