// Running a change against the API from a button or form: busy while it runs, its error kept to
// show (with <ErrorBanner error={action.error} />).
import { useCallback, useState } from 'react';

export interface Action {
  error: unknown;
  busy: boolean;
  /** Runs `action`; true when it succeeded, false when it threw (the error is kept). */
  run: (action: () => Promise<unknown>) => Promise<boolean>;
  /** Shows an error found before anything was sent (a form's own check). */
  fail: (error: unknown) => void;
  clear: () => void;
}

export function useAction(): Action {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const run = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  const clear = useCallback(() => setError(undefined), []);
  return { error, busy, run, fail: setError, clear };
}
