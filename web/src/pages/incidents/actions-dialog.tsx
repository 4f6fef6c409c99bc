// What was done to an incident, by whom and when, newest first (GET .../actions), paged.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { formatTime } from '../../components/format';
import { useUserNames } from '../../components/use-user-names';
import type { Incident, IncidentAction, Scope } from './types';
import { levelName, type Levels } from './use-levels';

const PAGE = 50;

async function loadActions(scope: Scope, id: string, limit: number): Promise<IncidentAction[]> {
  const params = { path: { id }, query: { limit, skip: 0 } };
  return scope === 'active'
    ? data(await api.GET('/node/api/incidents/{id}/actions', { params }))
    : data(await api.GET('/node/api/incident-history/{id}/actions', { params }));
}

/** A line about an action's details, in words. */
export function describeAction(a: IncidentAction, levels: Levels): string {
  const d = a.details as Record<string, any>;
  const level = (id: unknown) => levelName(levels, Number(id));
  switch (a.action) {
    case 'level-changed':
      return `${level(d.from)} → ${level(d.to)}${d.by === 'engine' ? ' (by the engine)' : ''}`;
    case 'acknowledged':
      return [d.message ? `“${d.message}”` : '', d.until ? `until ${formatTime(d.until)}` : '', d.sticky === false ? 'not sticky' : 'sticky'].filter(Boolean).join(', ');
    case 'unacknowledged':
      return d.reason === 'expired' ? 'expired' : d.reason === 'worse-level' ? 'dropped: the level got worse' : 'by hand';
    case 'suppressed':
      return [d.kind, d.windowName, d.rootCause ? `cause ${d.rootCause.entityName}` : '', d.until ? `until ${formatTime(d.until)}` : '', d.message ? `“${d.message}”` : ''].filter(Boolean).join(', ');
    case 'unsuppressed':
      return d.was?.kind ? `was ${d.was.kind}` : '';
    case 'raised':
      return `${level(d.level)}${d.suppression ? `, suppressed (${d.suppression.kind})` : ''}`;
    default:
      return d.by ? `by ${d.by === 'hand' ? 'hand' : d.by}` : '';
  }
}

export function ActionsDialog({ scope, incident, levels, onClose }: { scope: Scope; incident: Incident; levels: Levels; onClose: () => void }) {
  const [shown, setShown] = useState(PAGE);
  const list = useApi(() => loadActions(scope, incident.id, shown + 1), [scope, incident.id, shown]);
  const actions = (list.data ?? []).slice(0, shown);
  const userName = useUserNames(actions.map((a) => a.userId ?? undefined));
  return (
    <Dialog title={`Actions on incident ${incident.id}`} open onClose={onClose}>
      <p className="muted">{incident.text}</p>
      <ErrorBanner error={list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      <ol className="inc-comments" aria-label="Actions">
        {actions.map((a) => (
          <li key={a.id} data-action={a.action}>
            <div className="muted">
              {formatTime(a.timestamp)} · {a.userId ? userName(a.userId) : 'system'}
            </div>
            <div>
              <strong>{a.action}</strong> {describeAction(a, levels)}
            </div>
          </li>
        ))}
      </ol>
      {(list.data?.length ?? 0) > shown ? (
        <button type="button" onClick={() => setShown(shown + PAGE)}>
          Older actions
        </button>
      ) : null}
    </Dialog>
  );
}
