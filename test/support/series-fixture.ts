// Test support for the engine's unit tests: a compact way to write a series of evaluations,
//   "t=0 cpu=1; t=1000 cpu=5 s=ok; t=2000 cpu=\"5 \" up=true; t=3000"
// Steps are separated by `;`; each starts with `t=<ms>` and lists the entity's whole latest
// record (nothing carries over, so a metric left out is missing). Values: numbers, true, false,
// null, a JSON string in double quotes (to keep spaces or force a string; no `;` inside), or a
// bare word.
import type { DataValue, EntityData } from '../../src/core/conditions/evaluate.js';

export interface Step {
  now: number;
  data: EntityData;
}

const TOKEN = /\s*([^=\s]+)=("(?:[^"\\]|\\.)*"|\S+)\s*/y;

function value(raw: string): DataValue {
  if (raw.startsWith('"')) return JSON.parse(raw) as string;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  const n = Number(raw);
  return Number.isFinite(n) ? n : raw;
}

export function series(text: string): Step[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const data: Record<string, DataValue> = {};
      let now: number | undefined;
      TOKEN.lastIndex = 0;
      while (TOKEN.lastIndex < s.length) {
        const at = TOKEN.lastIndex;
        const m = TOKEN.exec(s);
        if (!m) throw new Error(`series: cannot read ${JSON.stringify(s.slice(at))}`);
        const [, key, raw] = m as unknown as [string, string, string];
        if (key === 't') now = Number(raw);
        else data[key] = value(raw);
      }
      if (now === undefined || !Number.isFinite(now)) throw new Error(`series: step without t=: ${JSON.stringify(s)}`);
      return { now, data };
    });
}
