// A V8 .cpuprofile as a flame graph in text: the call tree with each frame's inclusive share
// of the samples, indented by depth, branches under `minPercent` left out. What a flame
// graph shows, in a form a closing note or a terminal can carry.
interface CallFrame { functionName: string; url: string; lineNumber: number }
interface ProfileNode { id: number; callFrame: CallFrame; children?: number[] }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }

const label = (f: CallFrame) =>
  `${f.functionName || '(anonymous)'}${f.url ? ` ${f.url.replace(/^file:\/\/.*?\/(src|node_modules|bench)\//, '$1/').replace(/^node:internal\//, 'node:')}:${f.lineNumber + 1}` : ''}`;

export function flameTree(json: string, minPercent = 1.5, maxDepth = 40): string[] {
  const p = JSON.parse(json) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const dt = p.timeDeltas[i] ?? 0;
    self.set(p.samples[i]!, (self.get(p.samples[i]!) ?? 0) + dt);
    total += dt;
  }
  const inclusive = new Map<number, number>();
  const sum = (id: number): number => {
    const n = byId.get(id)!;
    let t = self.get(id) ?? 0;
    for (const c of n.children ?? []) t += sum(c);
    inclusive.set(id, t);
    return t;
  };
  const root = p.nodes[0]!;
  sum(root.id);
  const lines: string[] = [`${(total / 1e6).toFixed(2)} s sampled; frames of at least ${minPercent} %, inclusive share`];
  // Frames of one name under one parent merge (V8 splits them by inlining and line).
  const walk = (ids: number[], depth: number) => {
    const merged = new Map<string, { t: number; children: number[] }>();
    for (const id of ids) {
      const n = byId.get(id)!;
      const key = label(n.callFrame);
      const m = merged.get(key) ?? { t: 0, children: [] };
      m.t += inclusive.get(id) ?? 0;
      m.children.push(...(n.children ?? []));
      merged.set(key, m);
    }
    for (const [key, m] of [...merged.entries()].sort((a, b) => b[1].t - a[1].t)) {
      const pct = (100 * m.t) / Math.max(1, total);
      if (pct < minPercent) continue;
      lines.push(`${pct.toFixed(1).padStart(5)} % ${'  '.repeat(depth)}${key}`);
      if (depth < maxDepth) walk(m.children, depth + 1);
    }
  };
  walk(root.children ?? [], 0);
  return lines;
}
