// The sign-in form: login and password, or an API token.
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
  const [useToken, setUseToken] = useState(false);
  const signIn = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    await signIn.run(() => (useToken ? session.signInWithToken(token.trim()) : session.signIn(login, password)));
  }

  return (
    <main className="login">
      <form onSubmit={submit} aria-label="Sign in">
        <h1>Vigil</h1>
        <ErrorBanner error={signIn.error} />
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
        <button type="button" className="link" onClick={() => setUseToken(!useToken)}>
          {useToken ? 'Sign in with a password' : 'Sign in with an API token'}
        </button>
      </form>
    </main>
  );
}
