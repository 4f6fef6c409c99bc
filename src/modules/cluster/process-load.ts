// What a node reports of itself at each heartbeat: the share of one core its process used
// since the previous report, and its resident memory.
import { cpuUsage, memoryUsage } from 'node:process';
import { performance } from 'node:perf_hooks';

export interface LoadSample {
  /** CPU time over wall time since the previous sample: 1 = one core busy throughout. */
  load: number;
  /** Resident set size, bytes. */
  memory: number;
}

export function createLoadSampler(): () => LoadSample {
  let cpu = cpuUsage();
  let at = performance.now();
  return () => {
    const nowCpu = cpuUsage();
    const now = performance.now();
    const usedMs = (nowCpu.user - cpu.user + nowCpu.system - cpu.system) / 1000;
    const wallMs = now - at;
    cpu = nowCpu;
    at = now;
    return { load: wallMs > 0 ? Math.round((usedMs / wallMs) * 1000) / 1000 : 0, memory: memoryUsage.rss() };
  };
}
