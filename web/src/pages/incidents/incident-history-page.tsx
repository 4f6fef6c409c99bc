// /incidents/history: incidents moved to history (cleared and kept), by when they were raised.
import { IncidentsView } from './incidents-view';

export default function IncidentHistoryPage() {
  return (
    <>
      <h1>Incident history</h1>
      <IncidentsView scope="history" />
    </>
  );
}
