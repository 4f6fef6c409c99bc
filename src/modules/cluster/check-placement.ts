// The checks' placement for the probe runner (modules/probes): this node runs the checks whose
// key rendezvous-hashes to it among the live members, and hears when the members change.
import type { CheckPlacement } from '../probes/probe-service.js';
import type { Membership } from './membership.js';
import { ownerOf } from './placement.js';

export function createCheckPlacement(membership: Membership, heartbeatMs: number): CheckPlacement {
  // Whether the latest change brought a node in (this one starting counts): only then may a
  // check this node gains still run elsewhere. A node that died counted itself out before the
  // others counted it dead (membership.ts), so what it ran is free at once.
  let known: readonly string[] = [];
  let joined = true;
  membership.onMembers((now) => {
    joined = now.some((id) => !known.includes(id));
    known = now;
  });
  return {
    owns: (key) => ownerOf(key, membership.members()) === membership.nodeId,
    // A node that held a check sees the newcomer at its next heartbeat (within heartbeatMs of
    // ours) plus the time its beat takes: half a beat more covers that.
    handoverMs: () => (joined && membership.members().length > 1 ? Math.round(heartbeatMs * 1.5) : 0),
    onChange(listener) {
      membership.onMembers(() => listener());
    },
  };
}
