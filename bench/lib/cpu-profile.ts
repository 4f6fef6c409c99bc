// The top self-time functions of a V8 .cpuprofile (node --cpu-prof), as lines to print: what a
// bench's profiled round spent its CPU on, without opening DevTools.
interface ProfileNode { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }
interface Profile { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number }

export function summarizeProfile(json: string, top: number): string[] {
  const p = JSON.parse(json) as Profile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!);
    const dt = p.timeDeltas[i] ?? 0;
    if (!n) continue;
    const f = n.callFrame;
    // Positions are in the code V8 ran (tsx's output, often one line per file): the column tells functions apart.
    const where = f.url ? `${f.url.replace(/^file:\/\/.*?\/(src|node_modules)\//, '$1/')}:${f.lineNumber + 1}:${f.columnNumber + 1}` : '';
    const key = `${f.functionName || '(anonymous)'} ${where}`.trim();
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  }
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  return [`${(total / 1e6).toFixed(1)} s sampled`, ...rows.map(([k, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / Math.max(1, total)).toFixed(1).padStart(5)} %  ${k}`)];
}
