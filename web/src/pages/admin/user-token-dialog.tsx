// A user's API token: create (which replaces any earlier one) and revoke. The token is shown
// once, here. Your own token takes your password (the server asks for it); another user's not.
import { useState } from 'react';
import { useSession } from '../../auth/session';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAuthToken } from '../../components/use-auth-token';
import type { User } from './admin-types';

export function UserTokenDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const tokens = useAuthToken(user.id);
  const self = useSession().user?.id === user.id;
  const [password, setPassword] = useState('');
  return (
    <Dialog title={`API token of ${user.login}`} open onClose={onClose}>
      <ErrorBanner error={tokens.error} />
      {tokens.note ? <p role="status">{tokens.note}</p> : null}
      <p className="muted">A new token replaces the user's earlier one.</p>
      {self ? (
        <Field label="Your password (to create your own token)">
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" />
        </Field>
      ) : null}
      <div className="row">
        <button type="button" className="primary" disabled={tokens.busy} onClick={() => void tokens.create(self ? password : undefined)}>Create token</button>
        <button type="button" className="danger" disabled={tokens.busy} onClick={() => void tokens.revoke()}>Revoke token</button>
      </div>
      {tokens.token ? (
        <Field label={`API token of ${user.login} (shown once)`}>
          <input className="adm-token" readOnly value={tokens.token} onFocus={(e) => e.target.select()} />
        </Field>
      ) : null}
    </Dialog>
  );
}
