// Resolves a name through a DNS server (the check's, or the system's) and reports how many
// answers came back, what they were, and whether the expected one was among them.
import { promises as dns } from 'node:dns';
import type { DnsCheck } from '../../core/probes/check-definition.js';
import { ProbeFailure, type Probe, type ProbeValues } from '../probe.js';

/** Longest `answer` text kept: it is a string metric, not a zone dump. */
const ANSWER_MAX = 1000;

interface Answer {
  /** As reported in `answer`. */
  text: string;
  /** Every form `expected` may take to match this answer, normalised. */
  matches: string[];
}

const normalName = (s: string): string => s.trim().toLowerCase().replace(/\.$/, '');

/** An IPv6 address in one canonical form, so "0:0::1" and "::1" compare equal. */
function normalV6(s: string): string {
  try {
    return new URL(`http://[${s.trim()}]/`).hostname.slice(1, -1);
  } catch {
    return s.trim().toLowerCase();
  }
}

async function query(resolver: dns.Resolver, check: DnsCheck): Promise<Answer[]> {
  // Answers are sorted: round-robin servers rotate them, and the `answer` text would
  // otherwise change on every run without anything having changed.
  switch (check.recordType) {
    case 'A':
      return (await resolver.resolve4(check.name)).sort().map((a) => ({ text: a, matches: [a] }));
    case 'AAAA':
      return (await resolver.resolve6(check.name)).sort().map((a) => ({ text: a, matches: [normalV6(a)] }));
    case 'MX':
      return (await resolver.resolveMx(check.name))
        .sort((x, y) => x.priority - y.priority || x.exchange.localeCompare(y.exchange))
        .map((mx) => ({ text: `${mx.priority} ${mx.exchange}`, matches: [normalName(mx.exchange), `${mx.priority} ${normalName(mx.exchange)}`] }));
    case 'TXT':
      return (await resolver.resolveTxt(check.name))
        .map((chunks) => chunks.join(''))
        .sort()
        .map((t) => ({ text: t, matches: [t] }));
  }
}

/** The address of a DNS server setting: "10.0.0.53", "10.0.0.53:5353", "[fd00::53]:53", "fd00::53". */
function serverAddress(server: string): string {
  const s = server.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(s);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^([\d.]+):\d+$/.exec(s);
  return v4WithPort ? v4WithPort[1]! : s;
}

function expectedForm(check: DnsCheck, expected: string): string {
  if (check.recordType === 'AAAA') return normalV6(expected);
  if (check.recordType === 'MX') return normalName(expected.replace(/\s+/g, ' '));
  return expected;
}

export const dnsProbe: Probe<DnsCheck> = (check, ctx) =>
  new Promise((resolve, reject) => {
    if (ctx.signal.aborted) return reject(new Error('aborted'));
    const resolver = new dns.Resolver({ timeout: check.timeoutMs, tries: 1 });
    // The server asked is the connection made (an address, maybe with a port): under the
    // network policy. Without one the system's own resolvers are asked.
    const refused = check.server ? ctx.net?.refusalForHost(serverAddress(check.server)) : undefined;
    if (refused) return reject(new ProbeFailure(refused));
    try {
      if (check.server) resolver.setServers([check.server.trim()]);
    } catch (err) {
      return reject(new ProbeFailure(`bad DNS server "${check.server}": ${(err as Error).message}`));
    }
    let settled = false;
    const onAbort = () => {
      if (settled) return;
      settled = true;
      resolver.cancel();
      reject(new Error('aborted'));
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const started = performance.now();
    query(resolver, check).then(
      (answers) => {
        if (settled) return;
        settled = true;
        ctx.signal.removeEventListener('abort', onAbort);
        const latency = Math.round((performance.now() - started) * 1000) / 1000;
        const answer = answers.map((a) => a.text).join(', ').slice(0, ANSWER_MAX);
        const measured: ProbeValues = { latency, answers: answers.length, answer };
        if (check.expected !== undefined) {
          const want = expectedForm(check, check.expected);
          if (!answers.some((a) => a.matches.includes(want))) {
            return reject(new ProbeFailure(`expected ${check.expected}, got ${answer || 'no answer'}`, measured));
          }
        }
        resolve({ available: 1, ...measured });
      },
      (err: NodeJS.ErrnoException) => {
        if (settled) return;
        settled = true;
        ctx.signal.removeEventListener('abort', onAbort);
        // The server answered "no such name" or "no such record": nothing, but an answer.
        const partial: ProbeValues = err.code === 'ENOTFOUND' || err.code === 'ENODATA' ? { answers: 0 } : {};
        reject(new ProbeFailure(err.message, partial));
      },
    );
  });
