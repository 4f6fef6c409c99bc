// What every check type implements. The same probes run inside the server and in the remote
// agent (src/agent), so nothing here may depend on the server's services or storage.
import type { NetPolicy } from '../core/net-policy.js';
import type { CheckDefinition } from '../core/probes/check-definition.js';

/** Metric name (without the check's prefix) → value. Numbers go into history. */
export type ProbeValues = Record<string, number | string>;

export interface ProbeContext {
  /** Fires at the check's timeout, or when the check is cancelled (object deleted, check changed). */
  signal: AbortSignal;
  /** Kept between runs of one check (e.g. the last counter readings an SNMP rate needs). */
  memory: Map<string, unknown>;
  /** Wall clock in ms (a parameter so tests can fix it). */
  now(): number;
  /** Addresses the probe may connect to (the server's probes.denyNetworks); none: any. */
  net?: NetPolicy;
}

/**
 * A failed check: the message is the error text operators see; `values` carries what was
 * measured before the failure (an unexpected status code, the latency of a wrong answer).
 */
export class ProbeFailure extends Error {
  override name = 'ProbeFailure';
  constructor(message: string, readonly values: ProbeValues = {}) {
    super(message);
  }
}

/**
 * Resolves with `available: 1`, `latency` (ms) and the type's own metrics when the target
 * answered as expected; rejects (a ProbeFailure, or any error whose message explains it)
 * otherwise. Must give up promptly when `ctx.signal` fires.
 */
export type Probe<C extends CheckDefinition> = (check: C, ctx: ProbeContext) => Promise<ProbeValues>;
