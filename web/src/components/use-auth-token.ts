// A user's API token: create (POST /users/{id}/auth-token, which replaces any earlier one) and
// revoke (DELETE). The server keeps only a hash, so the token is known here once, when made.
// Making one's own token takes one's password (a stolen session must not mint a lasting
// token); a manager making another user's token gives none.
import { useState } from 'react';
import { api } from '../api/client';
import { useAction } from './use-action';

export function useAuthToken(userId: string) {
  const [token, setToken] = useState<string>();
  const [note, setNote] = useState('');
  const action = useAction();
  const path = { params: { path: { id: userId } } };

  const run = (change: () => Promise<void>) => {
    setNote('');
    return action.run(change);
  };
  const create = (password?: string) => run(async () => {
    const res = await api.POST('/node/api/users/{id}/auth-token', { ...path, body: password === undefined ? {} : { password } });
    setToken(res.data as string);
    setNote('Token created. Copy it now: it will not be shown again.');
  });
  const revoke = () => run(async () => {
    await api.DELETE('/node/api/users/{id}/auth-token', path);
    setToken(undefined);
    setNote('Token revoked.');
  });
  const clear = () => {
    setNote('');
    action.clear();
  };
  return { token, note, error: action.error, busy: action.busy, create, revoke, clear };
}
