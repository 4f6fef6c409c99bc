// What the security log form asks for, and how it becomes the query of GET /users/security/log.
import type { paths } from '../../api/client';
import { containsText } from '../../components/search-text';
import { fromLocalInput } from '../../components/time-input';
import { allOf } from './json-filter';

export type SecurityLogParams = NonNullable<paths['/node/api/users/security/log']['get']['parameters']['query']>;
export type SecurityRecord = paths['/node/api/users/security/log']['get']['responses'][200]['content']['application/json'][number];

export interface SecurityLogDraft {
  from: string;
  to: string;
  login: string;
  event: string;
  channel: string;
  filter: string;
}

export const EMPTY_SECURITY_DRAFT: SecurityLogDraft = { from: '', to: '', login: '', event: '', channel: '', filter: '' };

/** The kinds of record the server writes (src/modules/security-log/events.ts). */
export const SECURITY_EVENTS: Array<{ id: string; label: string }> = [
  { id: 'LoginSuccess', label: 'Successful sign-in' },
  { id: 'LoginFailure', label: 'Failed sign-in' },
  { id: 'LoginLocked', label: 'Sign-in refused (locked)' },
  { id: 'Lockout', label: 'Lockout' },
  { id: 'Logout', label: 'Sign-out' },
  { id: 'AccessDenied', label: 'Access denied' },
];

/** The query for one page (its limit/skip); `extra` is the checked JSON filter of the form (if any). */
export function securityLogQuery(d: SecurityLogDraft, extra: Record<string, unknown> | undefined, page: { limit: number; skip: number }): SecurityLogParams {
  const q: SecurityLogParams = { ...page };
  const from = fromLocalInput(d.from);
  const to = fromLocalInput(d.to);
  if (from !== undefined) q.from = from;
  if (to !== undefined) q.to = to;
  // The login is matched as typed, in any case: a failed sign-in records whatever was typed.
  const login = d.login.trim();
  const filter = allOf([
    login ? { 'message.login': containsText(login) } : undefined,
    d.event ? { eventClassId: d.event } : undefined,
    d.channel ? { 'extra.channel': d.channel } : undefined,
    extra,
  ]);
  if (filter) q.filter = filter;
  return q;
}
