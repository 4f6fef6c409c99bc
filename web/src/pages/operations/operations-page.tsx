// Operations (route /admin/operations, right manage-configuration): is the server ready
// (GET /health), the nodes sharing its database (GET /cluster), what the device listeners took
// in (GET /intake/counters), and what the check scheduler did (GET /probes/counters). Read
// again every 5 s and on Refresh.
import { useEffect, useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useSession } from '../../auth/session';
import { ErrorBanner, errorText } from '../../components/error-banner';
import { formatTime } from '../../components/format';
import { ClusterNodesTable } from './cluster-nodes-table';
import { IntakeCountersTable } from './intake-counters-table';
import { ProbeCountersTable } from './probe-counters-table';
import './operations.css';

const REFRESH_MS = 5000;

export default function OperationsPage() {
  const session = useSession();
  const allowed = session.can('manage-configuration');
  const [tick, setTick] = useState(0);
  useEffect(() => {
    if (!allowed) return;
    const timer = setInterval(() => setTick((t) => t + 1), REFRESH_MS);
    return () => clearInterval(timer);
  }, [allowed]);
  const health = useApi(async () => data(await api.GET('/node/api/health')), [tick]);
  const intake = useApi(async () => (allowed ? data(await api.GET('/node/api/intake/counters')) : undefined), [tick, allowed]);
  const probes = useApi(async () => (allowed ? data(await api.GET('/node/api/probes/counters')) : undefined), [tick, allowed]);
  const cluster = useApi(async () => (allowed ? data(await api.GET('/node/api/cluster')) : undefined), [tick, allowed]);
  const [readAt, setReadAt] = useState<number>();
  const busy = health.loading || intake.loading || probes.loading || cluster.loading;
  useEffect(() => {
    if (!busy) setReadAt(Date.now());
  }, [busy]);

  return (
    <section aria-labelledby="ops-title">
      <div className="ops-head">
        <h1 id="ops-title">Operations</h1>
        <span className="spacer" />
        <span className="muted" aria-live="off">{readAt ? `read ${formatTime(readAt)}` : ''}</span>
        <button type="button" onClick={() => setTick((t) => t + 1)} disabled={busy}>Refresh</button>
      </div>
      <p>
        Server health:{' '}
        {health.error ? (
          <span className="badge ops-bad" title={errorText(health.error)}>not ready ({errorText(health.error)})</span>
        ) : health.data ? (
          <span className="badge ops-ok">{health.data.status}</span>
        ) : (
          <span className="muted">…</span>
        )}
      </p>
      {!allowed ? (
        <p className="muted">The counters need the right manage-configuration.</p>
      ) : (
        <div className="ops-grid">
          <section aria-labelledby="ops-cluster">
            <h2 id="ops-cluster">Cluster</h2>
            <ErrorBanner error={cluster.error} />
            {cluster.data ? <ClusterNodesTable view={cluster.data} /> : cluster.loading ? <p className="loading">Loading…</p> : null}
          </section>
          <section aria-labelledby="ops-probes">
            <h2 id="ops-probes">Checks run by the server</h2>
            <ErrorBanner error={probes.error} />
            {probes.data ? <ProbeCountersTable counters={probes.data} /> : probes.loading ? <p className="loading">Loading…</p> : null}
          </section>
          <section aria-labelledby="ops-intake">
            <h2 id="ops-intake">Device listeners</h2>
            <ErrorBanner error={intake.error} />
            {intake.data ? <IntakeCountersTable counters={intake.data} /> : intake.loading ? <p className="loading">Loading…</p> : null}
          </section>
        </div>
      )}
    </section>
  );
}
