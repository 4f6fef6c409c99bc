// The account window: who you are, your password, and your API token with its authorization
// link {base_url}/?auth-token=<API_TOKEN> (create, copy, revoke). The token is shown once, when
// made: the server keeps only its hash. The link is hidden when the server turns it off.
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { Field } from '../components/field';
import { useSession } from './session';

export function AccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const session = useSession();
  const user = session.user!;
  const [token, setToken] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [password, setPassword] = useState('');
  const [saved, setSaved] = useState('');

  async function createToken() {
    setError(undefined);
    try {
      const res = await api.POST('/node/api/users/{id}/auth-token', { params: { path: { id: user.id } } });
      setToken(res.data as string);
    } catch (err) {
      setError(err);
    }
  }
  async function revokeToken() {
    setError(undefined);
    try {
      await api.DELETE('/node/api/users/{id}/auth-token', { params: { path: { id: user.id } } });
      setToken(undefined);
      setSaved('Token revoked');
    } catch (err) {
      setError(err);
    }
  }
  async function changePassword(e: FormEvent) {
    e.preventDefault();
    setError(undefined);
    try {
      await api.PATCH('/node/api/users/{id}', { params: { path: { id: user.id } }, body: { password } as never });
      setPassword('');
      setSaved('Password changed');
    } catch (err) {
      setError(err);
    }
  }

  const link = token ? `${window.location.origin}/?auth-token=${encodeURIComponent(token)}` : undefined;
  return (
    <Dialog title="Account" open={open} onClose={onClose}>
      <ErrorBanner error={error} />
      {saved ? <p role="status">{saved}</p> : null}
      <p>
        Signed in as <strong>{user.login}</strong> (user {user.id})
      </p>
      <form onSubmit={changePassword} className="row">
        <Field label="New password">
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" minLength={8} required />
        </Field>
        <button type="submit">Change password</button>
      </form>
      <section aria-label="API token">
        <h3>API token</h3>
        <div className="row">
          <button type="button" onClick={createToken}>Create token</button>
          <button type="button" onClick={revokeToken}>Revoke token</button>
        </div>
        {token ? (
          <Field label="Your API token (shown once)">
            <input readOnly value={token} onFocus={(e) => e.target.select()} />
          </Field>
        ) : null}
        {link && session.settings.authTokenEnabled ? (
          <Field label="Authorization link">
            <input readOnly value={link} onFocus={(e) => e.target.select()} data-testid="auth-link" />
          </Field>
        ) : null}
      </section>
    </Dialog>
  );
}
