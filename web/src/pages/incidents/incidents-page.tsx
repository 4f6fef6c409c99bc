// /incidents: the active incidents, live.
import { IncidentsView } from './incidents-view';

export default function IncidentsPage() {
  return (
    <>
      <h1>Incidents</h1>
      <IncidentsView scope="active" />
    </>
  );
}
