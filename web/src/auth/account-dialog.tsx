// The account window: who you are, your password, and your API token with its authorization
// link. Both changes ask for the current password: a session alone may not make them.
// link {base_url}/?auth-token=<API_TOKEN> (create, copy, revoke). The token is shown once, when
// made: the server keeps only its hash. The link is hidden when the server turns it off, and
// the whole token part when token sign-in is off (the server then refuses tokens everywhere).
import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Dialog } from '../components/dialog';
import { ErrorBanner } from '../components/error-banner';
import { Field } from '../components/field';
import { useAction } from '../components/use-action';
import { useAuthToken } from '../components/use-auth-token';
import { useSession } from './session';

export function AccountDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const session = useSession();
  const user = session.user!;
  const tokens = useAuthToken(user.id);
  const { token } = tokens;
  const passwordChange = useAction();
  const [password, setPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [tokenPassword, setTokenPassword] = useState('');
  const [saved, setSaved] = useState('');

  async function changePassword(e: FormEvent) {
    e.preventDefault();
    setSaved('');
    tokens.clear();
    // A variable, not a literal: currentPassword is in the server's schema before the UI's types.
    const body = { password, currentPassword };
    const ok = await passwordChange.run(() => api.PATCH('/node/api/users/{id}', { params: { path: { id: user.id } }, body }));
    if (ok) {
      setPassword('');
      setCurrentPassword('');
      setSaved('Password changed');
    }
  }

  async function createToken(e: FormEvent) {
    e.preventDefault();
    tokenAction(async () => {
      const ok = await tokens.create(tokenPassword);
      if (ok) setTokenPassword('');
      return ok;
    });
  }

  // One message at a time: what the last action said.
  const tokenAction = (act: () => Promise<boolean>) => {
    setSaved('');
    passwordChange.clear();
    void act();
  };

  // The server's configured base URL names it as others reach it (behind a proxy, say).
  const base = session.settings.baseUrl?.replace(/\/+$/, '') || window.location.origin;
  const link = token ? `${base}/?auth-token=${encodeURIComponent(token)}` : undefined;
  return (
    <Dialog title="Account" open={open} onClose={onClose}>
      <ErrorBanner error={passwordChange.error ?? tokens.error} />
      {saved || tokens.note ? <p role="status">{saved || tokens.note}</p> : null}
      <p>
        Signed in as <strong>{user.login}</strong> (user {user.id})
      </p>
      <form onSubmit={changePassword} className="row">
        <Field label="Current password">
          <input type="password" value={currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} autoComplete="current-password" required />
        </Field>
        <Field label="New password">
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="new-password" minLength={8} required />
        </Field>
        <button type="submit" disabled={passwordChange.busy}>Change password</button>
      </form>
      <section aria-label="API token">
        <h3>API token</h3>
        {session.settings.tokenSignIn ? (
          <>
            <form onSubmit={createToken} className="row">
              <Field label="Your password (to create a token)">
                <input type="password" value={tokenPassword} onChange={(e) => setTokenPassword(e.target.value)} autoComplete="current-password" required />
              </Field>
              <button type="submit" disabled={tokens.busy}>Create token</button>
              <button type="button" disabled={tokens.busy} onClick={() => tokenAction(tokens.revoke)}>Revoke token</button>
            </form>
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
          </>
        ) : (
          <p className="muted">API tokens are switched off on this server (server.user.auth_token_enabled), so it refuses them everywhere: there is none to make.</p>
        )}
      </section>
    </Dialog>
  );
}
