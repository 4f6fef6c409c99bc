// The sign-in form: login and password, or an API token when the server allows token sign-in.
// Above it, what happened before: the error of a refused `/?auth-token=` link, or that the
// session ended.
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../components/error-banner';
import { Field } from '../components/field';
import { useAction } from '../components/use-action';
import { useSession } from './session';

export function LoginPage() {
  const session = useSession();
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [wantToken, setWantToken] = useState(false);
  const signIn = useAction();
  const tokenAllowed = session.settings.tokenSignIn;
  const useToken = wantToken && tokenAllowed;
  const { notice } = session;

  async function submit(e: FormEvent) {
    e.preventDefault();
    session.clearNotice();
    await signIn.run(() => (useToken ? session.signInWithToken(token.trim()) : session.signIn(login, password)));
  }

  return (
    <main className="login">
      <form onSubmit={submit} aria-label="Sign in">
        <h1>Vigil</h1>
        <ErrorBanner error={signIn.error ?? (notice?.kind === 'error' ? notice.error : undefined)} />
        {notice?.kind === 'ended' && !signIn.error ? <p role="status">Your session ended; sign in again.</p> : null}
        {useToken ? (
          <Field label="API token">
            <input value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" required />
          </Field>
        ) : (
          <>
            <Field label="Login">
              <input value={login} onChange={(e) => setLogin(e.target.value)} autoComplete="username" required autoFocus />
            </Field>
            <Field label="Password">
              <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
            </Field>
          </>
        )}
        <button type="submit" disabled={signIn.busy}>Sign in</button>
        {tokenAllowed ? (
          <button type="button" className="link" onClick={() => setWantToken(!useToken)}>
            {useToken ? 'Sign in with a password' : 'Sign in with an API token'}
          </button>
        ) : null}
      </form>
    </main>
  );
}
