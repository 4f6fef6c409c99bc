// A state change's reason as a sentence (codes from GET /state-history's schema).
import type { StateChange } from './types';

export function reasonText(reason: StateChange['reason']): string {
  const r = reason as Record<string, unknown> & { code: number };
  switch (r.code) {
    case 1: {
      const desc = typeof r.description === 'string' && r.description ? `: ${r.description}` : '';
      return `State condition #${Number(r.condition ?? 0) + 1} matched${desc}`;
    }
    case 3:
      return 'No state condition matched';
    case 10: {
      const root = r.rootCause as { entityName?: string; entityId?: string } | undefined;
      return `State change in a child: ${root?.entityName ?? root?.entityId ?? 'unknown'}`;
    }
    case 13:
      return r.cleared ? `Manual state removed (user ${String(r.userId ?? '?')})` : `Manual state set (user ${String(r.userId ?? '?')})`;
    case 15: {
      const cause = typeof r.cause === 'string' ? `: ${r.cause}` : '';
      const agent = typeof r.agentName === 'string' ? ` (${r.agentName})` : '';
      return `Data expired${cause}${agent}`;
    }
    default:
      return `Reason ${r.code}`;
  }
}
