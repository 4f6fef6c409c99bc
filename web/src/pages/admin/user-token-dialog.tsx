// A user's API token: create (which replaces any earlier one) and revoke. The token is shown
// once, here.
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAuthToken } from '../../components/use-auth-token';
import type { User } from './admin-types';

export function UserTokenDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const tokens = useAuthToken(user.id);
  return (
    <Dialog title={`API token of ${user.login}`} open onClose={onClose}>
      <ErrorBanner error={tokens.error} />
      {tokens.note ? <p role="status">{tokens.note}</p> : null}
      <p className="muted">A new token replaces the user's earlier one.</p>
      <div className="row">
        <button type="button" className="primary" disabled={tokens.busy} onClick={() => void tokens.create()}>Create token</button>
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
