// The user an agent belongs to, as they are now: read at every check-in, so an agent whose
// user lost a right or was blocked stops being handed checks (and their secrets) at once.
import type { createAccess } from '../catalog/access.js';
import { type UsersService, effectiveRights, isBlocked } from '../users/service.js';
import type { AgentOwner } from './service.js';

export function agentOwner(users: Pick<UsersService, 'getForAuth'>, access: ReturnType<typeof createAccess>, clock: () => number) {
  return async (userId: string): Promise<AgentOwner | undefined> => {
    // The record authentication reads (kept current by every change through the users service).
    const user = await users.getForAuth(userId);
    if (!user) return undefined;
    const actor = access.actorOf({ user, rights: effectiveRights(user), method: 'token' });
    return { actor, blocked: isBlocked(user, clock()) };
  };
}
