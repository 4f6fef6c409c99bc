// An incident's comments, newest first and paged, and (for an active incident, to a user with
// a right to act on incidents) a form to add one. The comment route takes the text as
// text/plain, so it goes through rawFetch.
import { useState, type FormEvent } from 'react';
import { api, data, rawFetch } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useSession } from '../../auth/session';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { formatTime } from '../../components/format';
import { useAction } from '../../components/use-action';
import { useUserNames } from '../../components/use-user-names';
import type { Incident, IncidentComment, Scope } from './types';

const PAGE = 20;
const MAX_COMMENT = 10000;

async function loadComments(scope: Scope, id: string, limit: number): Promise<IncidentComment[]> {
  const params = { path: { id }, query: { limit, skip: 0 } };
  return scope === 'active'
    ? data(await api.GET('/node/api/incidents/{id}/comments', { params }))
    : data(await api.GET('/node/api/incident-history/{id}/comments', { params }));
}

export function CommentsDialog({ scope, incident, onClose, onCommented }: { scope: Scope; incident: Incident; onClose: () => void; onCommented?: () => void }) {
  // One more than shown tells whether older comments remain.
  const [shown, setShown] = useState(PAGE);
  const list = useApi(() => loadComments(scope, incident.id, shown + 1), [scope, incident.id, shown]);
  const comments = (list.data ?? []).slice(0, shown);
  const userName = useUserNames(comments.map((c) => c.author));
  const [text, setText] = useState('');
  const add = useAction();
  const session = useSession();
  const mayComment = scope === 'active' && session.settings.incidentActionRights.some((r) => session.can(r));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await add.run(async () => {
      await rawFetch(`/node/api/incidents/${encodeURIComponent(incident.id)}/comment`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain; charset=utf-8' },
        body: text,
      });
      setText('');
      list.reload();
      onCommented?.();
    });
  };

  return (
    <Dialog title={`Comments on incident ${incident.id}`} open onClose={onClose}>
      <p className="muted">{incident.text}</p>
      {mayComment ? (
        <form onSubmit={submit}>
          <Field label="Comment">
            <textarea value={text} rows={3} maxLength={MAX_COMMENT} required onChange={(e) => setText(e.target.value)} />
          </Field>
          <button type="submit" className="primary" disabled={add.busy || text.trim() === ''}>
            Add comment
          </button>
        </form>
      ) : null}
      <ErrorBanner error={add.error ?? list.error} />
      {list.loading && !list.data ? <p className="loading">Loading…</p> : null}
      {list.data && comments.length === 0 ? <p className="muted">No comments yet.</p> : null}
      <ol className="inc-comments" aria-label="Comments">
        {comments.map((c) => (
          <li key={c.id}>
            <div className="muted">
              {userName(c.author)} · {formatTime(c.timestamp)}
            </div>
            <div className="inc-comment-text">{c.text}</div>
          </li>
        ))}
      </ol>
      {(list.data?.length ?? 0) > shown ? (
        <button type="button" onClick={() => setShown(shown + PAGE)}>
          Older comments
        </button>
      ) : null}
    </Dialog>
  );
}
