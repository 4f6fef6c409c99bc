// Which node runs a piece of work (a check): rendezvous hashing over the live members. Every
// node computes the same owner from the same member list, with no coordination; when a node
// joins or dies only the keys it gains or held move (about 1/N of them), the rest stay put.
import { createHash } from 'node:crypto';

/** A 48-bit score of (node, key): the node with the highest score owns the key. */
function score(node: string, key: string): number {
  return createHash('sha1').update(node).update('\0').update(key).digest().readUIntBE(0, 6);
}

/** The member that owns `key`; undefined when there are no members. Ties (never in practice) go to the smaller id. */
export function ownerOf(key: string, members: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = -1;
  for (const m of members) {
    const s = score(m, key);
    if (s > bestScore || (s === bestScore && best !== undefined && m < best)) {
      best = m;
      bestScore = s;
    }
  }
  return best;
}

/** A key's phase within an interval, the same on every node: a moved check keeps its rhythm. */
export function phaseOf(key: string, intervalMs: number): number {
  return createHash('sha1').update(key).digest().readUIntBE(0, 6) % intervalMs;
}
