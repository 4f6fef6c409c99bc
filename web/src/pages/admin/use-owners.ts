// Logins of the users who own agents, looked up one by one (GET /users/{id}) and remembered,
// so the agents list does not need the whole users table.
import { useEffect, useState } from 'react';
import { api, data } from '../../api/client';

export function useOwners(userIds: readonly string[]): Map<string, string> {
  const [logins, setLogins] = useState<Map<string, string>>(new Map());
  const key = [...new Set(userIds)].sort().join(',');
  useEffect(() => {
    const missing = key === '' ? [] : key.split(',').filter((id) => !logins.has(id));
    if (missing.length === 0) return;
    let live = true;
    void Promise.all(missing.map(async (id) => {
      try {
        return [id, data(await api.GET('/node/api/users/{id}', { params: { path: { id } } })).login] as const;
      } catch {
        // Without manage-users (or a deleted user) the id is shown instead.
        return [id, `user ${id}`] as const;
      }
    })).then((found) => {
      if (live) setLogins((old) => new Map([...old, ...found]));
    });
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return logins;
}
