// The realistic data set of bench/history-size.ts: what pollers of network devices and
// servers really push, seeded so every run stores the same points.
//
// Each object is one poller sampling every 10 s. Half the objects have perfectly regular
// timestamps (a scheduler aligned to the 10 s grid); the other half have the jitter real
// pollers have: each sample 0–30 ms after its scheduled time (uniform), not accumulating.
// Every object pushes the same 12 metrics, all at the sample's timestamp:
//   gauges (6)   temp_c       1 decimal, random walk of ±0.0–0.2 around 40 (a board sensor)
//                inlet_c      2 decimals, random walk of ±0.00–0.05 (a precise probe)
//                cpu_pct      1 decimal, 5–60, drawn afresh each sample (noisy, the worst gauge)
//                load1        2 decimals, exponential smoothing of a noisy load (as Linux does)
//                mem_ratio    used / total computed in floating point: full-precision doubles
//                rtt_ms       3 decimals, 0.2–1.5 ms pings
//   counters (4) in_octets    64-bit byte counter from ~10^12, +10 kB…2 MB per sample
//                in_pkts      +10…2,000 per sample
//                in_errors    usually +0, now and then +1…3
//                uptime_ticks sysUpTime in 1/100 s: +1000 ± the jitter; all 4 reset to 0
//                             on a reboot (1 sample in 3,000)
//   constants(2) oper_status  1 (up), 2 for a few samples now and then (1 in 5,000)
//                disk_bytes   500107862016, a fixed capacity
import { seededRandom } from '../../src/core/seeded-random.js';

export const STEP_MS = 10_000;
export const METRICS = ['temp_c', 'inlet_c', 'cpu_pct', 'load1', 'mem_ratio', 'rtt_ms', 'in_octets', 'in_pkts', 'in_errors', 'uptime_ticks', 'oper_status', 'disk_bytes'] as const;
export type Kind = 'gauge' | 'counter' | 'constant';
export const KIND_OF: Record<string, Kind> = {
  temp_c: 'gauge', inlet_c: 'gauge', cpu_pct: 'gauge', load1: 'gauge', mem_ratio: 'gauge', rtt_ms: 'gauge',
  in_octets: 'counter', in_pkts: 'counter', in_errors: 'counter', uptime_ticks: 'counter',
  oper_status: 'constant', disk_bytes: 'constant',
};

export interface ObjectSeries {
  jittered: boolean;
  ts: number[];
  /** Metric name → values, one per timestamp. */
  values: Record<string, number[]>;
}

const round = (v: number, decimals: number) => Math.round(v * 10 ** decimals) / 10 ** decimals;

/** `objects` pollers × `points` samples each, ending about an hour before `now`. */
export function buildDataSet(objects: number, points: number, now: number, seed = 21): ObjectSeries[] {
  const r = seededRandom(seed);
  const start = Math.floor((now - 3_600_000 - points * STEP_MS) / STEP_MS) * STEP_MS;
  const out: ObjectSeries[] = [];
  for (let o = 0; o < objects; o++) {
    const jittered = o % 2 === 1;
    const ts: number[] = [];
    const v: Record<string, number[]> = Object.fromEntries(METRICS.map((m) => [m, []]));
    let temp = 40 + r() * 10;
    let inlet = 20 + r() * 5;
    let load = r() * 2;
    let octets = Math.floor(1e12 + r() * 1e11);
    let pkts = Math.floor(r() * 1e9);
    let errors = Math.floor(r() * 100);
    let ticks = Math.floor(r() * 1e8);
    let status = 1;
    const totalMem = 16 * 2 ** 30;
    let used = totalMem * (0.3 + r() * 0.4);
    for (let i = 0; i < points; i++) {
      const jitter = jittered ? Math.floor(r() * 31) : 0;
      ts.push(start + i * STEP_MS + jitter);
      temp = round(temp + (r() - 0.5) * 0.4, 1);
      inlet = round(inlet + (r() - 0.5) * 0.1, 2);
      load = load * 0.92 + r() * 4 * 0.08;
      used = Math.min(totalMem, Math.max(0, used + (r() - 0.5) * 2 ** 22));
      if (r() < 1 / 3000) octets = pkts = errors = ticks = 0; // a reboot
      octets += 10_000 + Math.floor(r() * 2_000_000);
      pkts += 10 + Math.floor(r() * 1990);
      if (r() < 0.05) errors += 1 + Math.floor(r() * 3);
      ticks += 1000 + (jittered ? Math.floor(r() * 7) - 3 : 0);
      if (status === 1 ? r() < 1 / 5000 : r() < 0.3) status = 3 - status;
      v.temp_c!.push(temp);
      v.inlet_c!.push(inlet);
      v.cpu_pct!.push(round(5 + r() * 55, 1));
      v.load1!.push(round(load, 2));
      v.mem_ratio!.push(used / totalMem);
      v.rtt_ms!.push(round(0.2 + r() * 1.3, 3));
      v.in_octets!.push(octets);
      v.in_pkts!.push(pkts);
      v.in_errors!.push(errors);
      v.uptime_ticks!.push(ticks);
      v.oper_status!.push(status);
      v.disk_bytes!.push(500107862016);
    }
    out.push({ jittered, ts, values: v });
  }
  return out;
}
