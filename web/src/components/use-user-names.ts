// Logins for the user ids records carry (an incident's acknowledgedBy, a comment's author, an
// agent's owner), so no list needs the whole users table. Only a user with manage-users may read
// other users (GET /users/{id}); everyone else sees their own login and the others' ids. Answers
// are cached for the session so a page of rows asks once per user.
import { useEffect, useState } from 'react';
import { api, data } from '../api/client';
import { useSession } from '../auth/session';

const cache = new Map<string, Promise<string>>();

function lookup(id: string): Promise<string> {
  let p = cache.get(id);
  if (!p) {
    p = api.GET('/node/api/users/{id}', { params: { path: { id } } }).then(
      (r) => data(r).login,
      () => `user ${id}`,
    );
    cache.set(id, p);
  }
  return p;
}

/** id → what to show for it; ids not known yet show as `user <id>`. */
export function useUserNames(ids: ReadonlyArray<string | undefined>): (id: string | undefined) => string {
  const session = useSession();
  const [names, setNames] = useState<Record<string, string>>({});
  const self = session.user;
  const mayRead = session.can('manage-users');
  const wanted = [...new Set(ids.filter((i): i is string => !!i && i !== self?.id))].sort().join(',');
  useEffect(() => {
    if (!mayRead || wanted === '') return;
    let live = true;
    for (const id of wanted.split(',')) {
      void lookup(id).then((login) => live && setNames((n) => (n[id] === login ? n : { ...n, [id]: login })));
    }
    return () => {
      live = false;
    };
  }, [wanted, mayRead]);
  return (id) => {
    if (!id) return '—';
    if (id === self?.id) return self.login;
    return names[id] ?? `user ${id}`;
  };
}
