// Who is signed in. The session lives in the server's cookies; this holds the user record
// (GET /users/current) and the UI settings, and offers sign-in (password or API token) and
// sign-out. `/?auth-token=<token>` signs in with the token and drops it from the address bar.
import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { api, data, setUnauthorizedHandler, type components } from '../api/client';

type UserSchema = NonNullable<Awaited<ReturnType<typeof fetchUser>>>;
async function fetchUser() {
  return data(await api.GET('/node/api/users/current'));
}
export type CurrentUser = UserSchema;
export type UiSettings = NonNullable<Awaited<ReturnType<typeof fetchSettings>>>;
async function fetchSettings() {
  return data(await api.GET('/node/api/web/settings'));
}

interface Session {
  user: CurrentUser | undefined;
  settings: UiSettings;
  /** True until the first answer about the session. */
  checking: boolean;
  signIn(login: string, password: string): Promise<void>;
  signInWithToken(token: string): Promise<void>;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
  can(right: string): boolean;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<CurrentUser | undefined>();
  const [checking, setChecking] = useState(true);
  const [settings, setSettings] = useState<UiSettings>({ authTokenEnabled: false, version: '', baseUrl: null, tokenSignIn: false, rights: [] });

  const refresh = useCallback(async () => {
    try {
      setUser(await fetchUser());
    } catch {
      setUser(undefined);
    }
  }, []);

  useEffect(() => {
    setUnauthorizedHandler(() => setUser(undefined));
    void (async () => {
      try {
        setSettings(await fetchSettings());
      } catch {
        // older server: keep defaults
      }
      const url = new URL(window.location.href);
      const token = url.searchParams.get('auth-token');
      if (token) {
        url.searchParams.delete('auth-token');
        window.history.replaceState(null, '', url.pathname + url.search + url.hash);
        try {
          await api.POST('/node/api/users/session', { body: { 'auth-token': token } });
        } catch {
          // a bad token: the sign-in page says so below
        }
      }
      await refresh();
      setChecking(false);
    })();
  }, [refresh]);

  const session: Session = {
    user,
    settings,
    checking,
    async signIn(login, password) {
      await api.POST('/node/api/users/session', { body: { login, password } });
      await refresh();
    },
    async signInWithToken(token) {
      await api.POST('/node/api/users/session', { body: { 'auth-token': token } });
      await refresh();
    },
    async signOut() {
      try {
        await api.DELETE('/node/api/users/session');
      } catch {
        // The session had ended already: signed out either way.
      } finally {
        setUser(undefined);
      }
    },
    refresh,
    can: (right) => user?.permissions.includes(right) ?? false,
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside SessionProvider');
  return s;
}

export type { components };
