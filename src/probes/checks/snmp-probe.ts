// One SNMP GET of the check's OIDs (v1, v2c or v3) per run. Each OID's value becomes a metric
// under its name, scaled; counters marked `rate` become per-second rates against the reading
// the previous run left in the check's memory.
import snmp from 'net-snmp';
import type { SnmpCheck, SnmpOid } from '../../core/probes/check-definition.js';
import { counterRate, type CounterReading, type CounterWidth } from '../../core/probes/counter-rate.js';
import { ProbeFailure, type Probe, type ProbeContext, type ProbeValues } from '../probe.js';

/** Longest text value kept: a string metric, not a dump of whatever the agent holds. */
const TEXT_MAX = 1000;

type Reading = { kind: 'number'; exact: bigint; value: number; width: CounterWidth } | { kind: 'text'; value: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });
// Control characters other than tab and line breaks mean binary data (a MAC address, a bitmap).
const UNPRINTABLE = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/;

function octetText(buf: Buffer): string {
  // Some agents count the C string's terminating NUL in the value.
  let end = buf.length;
  while (end > 0 && buf[end - 1] === 0) end--;
  try {
    const text = utf8.decode(buf.subarray(0, end));
    if (!UNPRINTABLE.test(text)) return text;
  } catch {
    // Not UTF-8: shown as hex below.
  }
  return buf.toString('hex');
}

function unsigned(value: unknown): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number') return BigInt(Math.trunc(value));
  if (Buffer.isBuffer(value)) {
    let n = 0n;
    for (const byte of value) n = (n << 8n) | BigInt(byte);
    return n;
  }
  return BigInt(String(value));
}

function reading(vb: snmp.Varbind): Reading {
  const number = (exact: bigint, width: CounterWidth): Reading => ({ kind: 'number', exact, value: Number(exact), width });
  switch (vb.type) {
    case snmp.ObjectType.Integer:
    case snmp.ObjectType.Gauge:
    case snmp.ObjectType.TimeTicks:
      return number(unsigned(vb.value), undefined);
    case snmp.ObjectType.Counter:
      return number(unsigned(vb.value), 32);
    case snmp.ObjectType.Counter64:
      return number(unsigned(vb.value), 64);
    case snmp.ObjectType.OctetString:
      return { kind: 'text', value: Buffer.isBuffer(vb.value) ? octetText(vb.value) : String(vb.value) };
    default:
      return { kind: 'text', value: Buffer.isBuffer(vb.value) ? vb.value.toString('hex') : String(vb.value) };
  }
}

const storedReading = (m: unknown): CounterReading | undefined =>
  typeof m === 'object' && m !== null && typeof (m as CounterReading).value === 'bigint' && typeof (m as CounterReading).at === 'number' ? (m as CounterReading) : undefined;

function createSession(check: SnmpCheck, host: string): snmp.Session {
  const common = { port: check.port, timeout: check.timeoutMs, retries: 0, transport: host.includes(':') ? ('udp6' as const) : ('udp4' as const) };
  if (check.version !== '3') {
    return snmp.createSession(host, check.community, { ...common, version: check.version === '1' ? snmp.Version1 : snmp.Version2c });
  }
  const u = check.user!;
  const user: snmp.User = { name: u.name, level: snmp.SecurityLevel[u.level] };
  if (u.level !== 'noAuthNoPriv') {
    user.authProtocol = snmp.AuthProtocols[u.authProtocol ?? 'sha'];
    user.authKey = u.authKey!;
  }
  if (u.level === 'authPriv') {
    user.privProtocol = snmp.PrivProtocols[u.privProtocol ?? 'aes'];
    user.privKey = u.privKey!;
  }
  return snmp.createV3Session(host, user, common);
}

/**
 * The metrics of the answered varbinds, and what kept any OID from giving one. Rate memory is
 * updated for every counter read, so a failing sibling OID does not lose the baseline.
 */
function metrics(check: SnmpCheck, varbinds: snmp.Varbind[], memory: Map<string, unknown>, at: number): { values: ProbeValues; problems: string[] } {
  const values: ProbeValues = {};
  const problems: string[] = [];
  check.oids.forEach((oid: SnmpOid, i) => {
    const vb = varbinds[i];
    if (!vb) return problems.push(`${oid.oid} (${oid.name}): not in the response`);
    if (snmp.isVarbindError(vb)) return problems.push(`${oid.oid} (${oid.name}): ${snmp.ObjectType[vb.type!] ?? 'error'}`);
    const r = reading(vb);
    if (r.kind === 'text') {
      if (oid.rate) return problems.push(`${oid.oid} (${oid.name}): a rate needs a number, the agent gave a ${snmp.ObjectType[vb.type!] ?? 'text'}`);
      values[oid.name] = r.value.slice(0, TEXT_MAX);
      return;
    }
    if (!oid.rate) {
      values[oid.name] = r.value * oid.scale;
      return;
    }
    const next: CounterReading = { value: r.exact, at };
    // Kept by metric name: one OID may feed two rates (bits and bytes of one counter).
    const rate = counterRate(storedReading(memory.get(oid.name)), next, r.width);
    // Stored whatever the outcome: the first reading, and the one after a reset, are baselines.
    memory.set(oid.name, next);
    if (rate !== undefined) values[oid.name] = rate * oid.scale;
  });
  return { values, problems };
}

export const snmpProbe: Probe<SnmpCheck> = async (check, ctx) => {
  if (!ctx.net) return snmpGet(check, check.host, ctx);
  // Under the network policy: the name is resolved and checked here, and the session is
  // given the address checked, so it cannot resolve the name again to another one.
  let address: string;
  try {
    address = (await ctx.net.resolve(check.host)).address;
  } catch (err) {
    throw new ProbeFailure((err as Error).message);
  }
  return snmpGet(check, address, ctx);
};

const snmpGet = (check: SnmpCheck, host: string, ctx: ProbeContext) =>
  new Promise<ProbeValues>((resolve, reject) => {
    if (ctx.signal.aborted) return reject(new Error('aborted'));
    let session: snmp.Session;
    try {
      session = createSession(check, host);
    } catch (err) {
      return reject(new ProbeFailure(`cannot start an SNMP session: ${(err as Error).message}`));
    }
    // A datagram net-snmp cannot parse is reported as an error event; without a listener it
    // would crash the process. The request goes on waiting for the real answer.
    let garbled: string | undefined;
    session.on('error', (err) => (garbled = err.message));

    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      try {
        session.close();
      } catch {
        // Already closed.
      }
      fn();
    };
    const onAbort = () => finish(() => reject(new Error('aborted')));
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    const started = performance.now();
    const onResponse: snmp.GetSetCallback = (err, varbinds) => {
      if (settled) return;
      const latency = Math.round((performance.now() - started) * 1000) / 1000;
      if (err) {
        // Typed as one error class, but net-snmp passes several (timeouts, error statuses).
        const kind = (err as Error).name;
        if (kind === 'RequestTimedOutError') {
          const hint = garbled ? ` (an unreadable answer came: ${garbled})` : '';
          const where = check.host.includes(':') ? `[${check.host}]:${check.port}` : `${check.host}:${check.port}`;
          return finish(() => reject(new ProbeFailure(`no answer from ${where} within ${check.timeoutMs} ms${hint}`)));
        }
        // An error status (v1's noSuchName, authorizationError) is an answer from the agent.
        const answered = kind === 'RequestFailedError';
        return finish(() => reject(new ProbeFailure(err.message, answered ? { latency } : {})));
      }
      let result: ReturnType<typeof metrics>;
      try {
        result = metrics(check, varbinds ?? [], ctx.memory, ctx.now());
      } catch (e) {
        return finish(() => reject(new ProbeFailure(`unreadable response: ${(e as Error).message}`, { latency })));
      }
      const { values, problems } = result;
      // latency and available come last: an OID named like them must not hide them.
      if (problems.length > 0) return finish(() => reject(new ProbeFailure(problems.join('; '), { ...values, latency })));
      finish(() => resolve({ ...values, available: 1, latency }));
    };
    try {
      session.get(check.oids.map((o) => o.oid), onResponse);
    } catch (err) {
      finish(() => reject(new ProbeFailure(`cannot send the SNMP request: ${(err as Error).message}`)));
    }
  });
