// The security log (GET /users/security/log): sign-ins, sign-outs, lockouts and refused
// requests, newest first, searched by time, user, event and channel, a page at a time.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useSession } from '../../auth/session';
import { ErrorBanner } from '../../components/error-banner';
import { Pager } from './pager';
import { SecurityLogForm } from './security-log-form';
import { EMPTY_SECURITY_DRAFT, securityLogQuery, type SecurityLogDraft } from './security-log-query';
import { SecurityLogTable } from './security-log-table';
import './logs.css';

interface Applied {
  draft: SecurityLogDraft;
  extra: Record<string, unknown> | undefined;
}

export default function SecurityLogPage() {
  const { can } = useSession();
  const [applied, setApplied] = useState<Applied>({ draft: EMPTY_SECURITY_DRAFT, extra: undefined });
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(50);
  const { data: rows, error, loading, reload } = useApi(
    async () => data(await api.GET('/node/api/users/security/log', { params: { query: securityLogQuery(applied.draft, applied.extra, page, pageSize) } })),
    [applied, page, pageSize],
  );
  const records = error ? [] : rows?.slice(0, pageSize) ?? [];
  const hasNext = !error && (rows?.length ?? 0) > pageSize;

  return (
    <section aria-labelledby="security-log-title">
      <div className="row">
        <h1 id="security-log-title">Security log</h1>
        <span className="spacer" />
        <button type="button" onClick={reload} disabled={loading}>Refresh</button>
      </div>
      {!can('read-security-log') ? <p className="muted">Reading the security log needs the right read-security-log.</p> : null}
      <SecurityLogForm
        initial={applied.draft}
        onApply={(draft, extra) => {
          setApplied({ draft, extra });
          setPage(0);
        }}
      />
      <ErrorBanner error={error} />
      {loading && !rows ? <p className="loading">Loading…</p> : null}
      {rows && records.length === 0 && !error ? (
        <p className="log-empty muted">{page > 0 ? 'No more records.' : 'No records match.'}</p>
      ) : null}
      {records.length > 0 ? <SecurityLogTable records={records} /> : null}
      <Pager
        label="Security log pages"
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
