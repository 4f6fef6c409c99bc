// The security log (GET /users/security/log): sign-ins, sign-outs, lockouts and refused
// requests, newest first, searched by time, user, event and channel, a page at a time.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useSession } from '../../auth/session';
import { usePagedApi } from '../../components/paging';
import { LogResults } from './log-results';
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
  const list = usePagedApi(
    async (page) => data(await api.GET('/node/api/users/security/log', { params: { query: securityLogQuery(applied.draft, applied.extra, page) } })),
    { resetOn: [applied], size: 50 },
  );

  return (
    <section aria-labelledby="security-log-title">
      <div className="row">
        <h1 id="security-log-title">Security log</h1>
        <span className="spacer" />
        <button type="button" onClick={list.reload} disabled={list.loading}>Refresh</button>
      </div>
      {!can('read-security-log') ? <p className="muted">Reading the security log needs the right read-security-log.</p> : null}
      <SecurityLogForm initial={applied.draft} onApply={(draft, extra) => setApplied({ draft, extra })} />
      <LogResults list={list} label="Security log pages">
        {(records) => <SecurityLogTable records={records} />}
      </LogResults>
    </section>
  );
}
