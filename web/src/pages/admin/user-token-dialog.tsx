// A user's API token: create (POST /users/{id}/auth-token, which replaces any earlier one) and
// revoke (DELETE). The server keeps only a hash, so the token is shown once, here.
import { useState } from 'react';
import { api } from '../../api/client';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import type { User } from './admin-types';

export function UserTokenDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const [token, setToken] = useState<string>();
  const [note, setNote] = useState('');
  const [error, setError] = useState<unknown>();
  const path = { params: { path: { id: user.id } } };

  async function run(action: () => Promise<void>) {
    setError(undefined);
    setNote('');
    try {
      await action();
    } catch (err) {
      setError(err);
    }
  }
  const create = () => run(async () => {
    const res = await api.POST('/node/api/users/{id}/auth-token', path);
    setToken(res.data as string);
    setNote('Token created. Copy it now: it will not be shown again.');
  });
  const revoke = () => run(async () => {
    await api.DELETE('/node/api/users/{id}/auth-token', path);
    setToken(undefined);
    setNote('Token revoked.');
  });

  return (
    <Dialog title={`API token of ${user.login}`} open onClose={onClose}>
      <ErrorBanner error={error} />
      {note ? <p role="status">{note}</p> : null}
      <p className="muted">A new token replaces the user's earlier one.</p>
      <div className="row">
        <button type="button" className="primary" onClick={() => void create()}>Create token</button>
        <button type="button" className="danger" onClick={() => void revoke()}>Revoke token</button>
      </div>
      {token ? (
        <Field label={`API token of ${user.login} (shown once)`}>
          <input className="adm-token" readOnly value={token} onFocus={(e) => e.target.select()} />
        </Field>
      ) : null}
    </Dialog>
  );
}
