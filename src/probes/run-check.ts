// Runs one check once, whatever its type: the probe under a timeout, its failure turned into
// `available: 0` and an error text, and every metric named with the check's prefix. A probe
// that ignores its abort signal is abandoned at the timeout, so it cannot hold a slot.
import type { NetPolicy } from '../core/net-policy.js';
import { metricName, type CheckDefinition, type CheckType } from '../core/probes/check-definition.js';
import { ProbeFailure, type Probe, type ProbeValues } from './probe.js';
import { httpProbe } from './checks/http-probe.js';
import { tcpProbe } from './checks/tcp-probe.js';
import { pingProbe } from './checks/ping-probe.js';
import { dnsProbe } from './checks/dns-probe.js';
import { snmpProbe } from './checks/snmp-probe.js';

const PROBES: { [T in CheckType]: Probe<Extract<CheckDefinition, { type: T }>> } = {
  http: httpProbe,
  tcp: tcpProbe,
  ping: pingProbe,
  dns: dnsProbe,
  snmp: snmpProbe,
};

export interface CheckRun {
  /** When the run started (ms). */
  timestamp: number;
  /** Prefixed metric names → values; always `available` and `error` ("" when none); `latency` when the target answered. */
  values: ProbeValues;
  /** The run was cancelled (not timed out): its result means nothing. */
  cancelled: boolean;
}

export async function runCheck(check: CheckDefinition, memory: Map<string, unknown>, cancel: AbortSignal, now: () => number = Date.now, net?: NetPolicy): Promise<CheckRun> {
  const timestamp = now();
  const started = performance.now();
  const timeout = AbortSignal.timeout(check.timeoutMs);
  const signal = AbortSignal.any([cancel, timeout]);
  let values: ProbeValues;
  try {
    const probe = PROBES[check.type] as Probe<CheckDefinition>;
    values = await Promise.race([
      probe(check, { signal, memory, now, net }),
      new Promise<never>((_, reject) => {
        const give = () => reject(cancel.aborted ? new Error('cancelled') : new Error(`timed out after ${check.timeoutMs} ms`));
        if (signal.aborted) give();
        // A grace of 50 ms lets a probe report its own, more precise, timeout error first.
        else signal.addEventListener('abort', () => setTimeout(give, 50).unref(), { once: true });
      }),
    ]);
    values = { available: 1, error: '', ...values };
    if (typeof values.latency !== 'number') values.latency = Math.round((performance.now() - started) * 1000) / 1000;
  } catch (err) {
    const partial = err instanceof ProbeFailure ? err.values : {};
    const message = timeout.aborted && !cancel.aborted ? `timed out after ${check.timeoutMs} ms` : err instanceof Error ? err.message : String(err);
    values = { ...partial, available: 0, error: message.slice(0, 1000) };
  }
  // A failed run has no latency unless the target answered (a wrong status, a wrong answer):
  // the time to a refused connection would chart as a fast, healthy target.
  const named: ProbeValues = {};
  for (const [k, v] of Object.entries(values)) named[metricName(check, k)] = v;
  return { timestamp, values: named, cancelled: cancel.aborted };
}
