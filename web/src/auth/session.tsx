// Who is signed in. The session lives in the server's cookies; this holds the user record
// (GET /users/current) and the UI settings, and offers sign-in (password or API token) and
// sign-out. `/?auth-token=<token>` signs in with the token and drops it from the address bar;
// when the server refuses it, its error waits in `notice` for the sign-in page to show.
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
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

/** What the sign-in page says before anyone types: a refused link's error, or that a session ended. */
export type SignInNotice = { kind: 'error'; error: unknown } | { kind: 'ended' } | undefined;

interface Session {
  user: CurrentUser | undefined;
  settings: UiSettings;
  /** True until the first answer about the session. */
  checking: boolean;
  notice: SignInNotice;
  clearNotice(): void;
  signIn(login: string, password: string): Promise<void>;
  signInWithToken(token: string): Promise<void>;
  signOut(): Promise<void>;
  refresh(): Promise<void>;
  can(right: string): boolean;
}

const SessionContext = createContext<Session | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUserState] = useState<CurrentUser | undefined>();
  const [checking, setChecking] = useState(true);
  const [notice, setNotice] = useState<SignInNotice>();
  const [settings, setSettings] = useState<UiSettings>({ authTokenEnabled: false, version: '', baseUrl: null, tokenSignIn: false, rights: [], incidentActionRights: [] });
  // The 401 handler lives outside React: it needs the user of now, not of its first render.
  const userRef = useRef<CurrentUser | undefined>(undefined);
  const setUser = useCallback((u: CurrentUser | undefined) => {
    userRef.current = u;
    setUserState(u);
  }, []);

  const refresh = useCallback(async () => {
    try {
      setUser(await fetchUser());
    } catch {
      setUser(undefined);
    }
  }, [setUser]);

  useEffect(() => {
    // A 401 while someone was signed in: the session ended (expired, revoked, signed out
    // elsewhere). On a first visit nobody was, and the sign-in page says nothing extra.
    setUnauthorizedHandler(() => {
      if (userRef.current) setNotice({ kind: 'ended' });
      setUser(undefined);
    });
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
        } catch (error) {
          setNotice({ kind: 'error', error });
        }
      }
      await refresh();
      setChecking(false);
    })();
  }, [refresh, setUser]);

  const signedIn = async () => {
    await refresh();
    setNotice(undefined);
  };

  const session: Session = {
    user,
    settings,
    checking,
    notice,
    clearNotice: () => setNotice(undefined),
    async signIn(login, password) {
      await api.POST('/node/api/users/session', { body: { login, password } });
      await signedIn();
    },
    async signInWithToken(token) {
      await api.POST('/node/api/users/session', { body: { 'auth-token': token } });
      await signedIn();
    },
    async signOut() {
      // Requests still under way may come back 401 once the session is gone: no "ended" notice.
      userRef.current = undefined;
      try {
        await api.DELETE('/node/api/users/session');
      } catch {
        // The session had ended already: signed out either way.
      } finally {
        setUser(undefined);
        setNotice(undefined);
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
