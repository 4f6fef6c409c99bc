// One metric's history drawn with uPlot, the annotations of the range as dashed vertical
// lines (a draw hook), the annotation under the cursor told below the chart, and a click on
// the plot reporting that moment (to annotate it).
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { formatTime } from '../../../components/format';
import type { Series } from './history-api';
import type { Annotation } from './types';

const HEIGHT = 220;
const NEAR_PX = 5;

export function HistoryChart({ series, from, to, annotations, onPick }: { series: Series; from: number; to: number; annotations: Annotation[]; onPick: (ms: number) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | undefined>(undefined);
  // Hooks read these refs, so new annotations or callbacks need a redraw, not a new chart.
  const notes = useRef(annotations);
  const pick = useRef(onPick);
  pick.current = onPick;
  const [hovered, setHovered] = useState<Annotation | undefined>();

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const xs = series.dps.map((p) => (p[0] ?? 0) / 1000);
    const ys = series.dps.map((p) => p[1] ?? null);
    const nearest = (u: uPlot, left: number) =>
      notes.current.find((a) => Math.abs(u.valToPos(a.timestamp / 1000, 'x') - left) <= NEAR_PX);
    const u = new uPlot(
      {
        width: Math.max(200, el.clientWidth),
        height: HEIGHT,
        // Clicking annotates, so drag-to-zoom is off (a drag would end in a click).
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true, range: [from / 1000, to / 1000] } },
        series: [{}, { label: series.metric, stroke: '#1f6feb', width: 1.5, points: { show: xs.length < 60 } }],
        hooks: {
          draw: [
            (self) => {
              const { ctx, bbox } = self;
              ctx.save();
              ctx.strokeStyle = '#c62828';
              ctx.lineWidth = uPlot.pxRatio;
              ctx.setLineDash([4 * uPlot.pxRatio, 3 * uPlot.pxRatio]);
              for (const a of notes.current) {
                const x = Math.round(self.valToPos(a.timestamp / 1000, 'x', true));
                if (x < bbox.left || x > bbox.left + bbox.width) continue;
                ctx.beginPath();
                ctx.moveTo(x, bbox.top);
                ctx.lineTo(x, bbox.top + bbox.height);
                ctx.stroke();
              }
              ctx.restore();
            },
          ],
          setCursor: [
            (self) => {
              const left = self.cursor.left;
              setHovered(left === undefined || left < 0 ? undefined : nearest(self, left));
            },
          ],
        },
      },
      [xs, ys],
      el,
    );
    const click = (e: MouseEvent) => {
      const left = e.clientX - u.over.getBoundingClientRect().left;
      pick.current(Math.round(u.posToVal(left, 'x') * 1000));
    };
    u.over.addEventListener('click', click);
    plot.current = u;
    const resize = new ResizeObserver(() => u.setSize({ width: Math.max(200, el.clientWidth), height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      u.over.removeEventListener('click', click);
      u.destroy();
      plot.current = undefined;
    };
  }, [series, from, to]);

  useEffect(() => {
    notes.current = annotations;
    plot.current?.redraw(false, false);
  }, [annotations]);

  return (
    <figure className="obj-chart" aria-label={`Chart of ${series.metric}`}>
      <figcaption>
        <strong>{series.metric}</strong> <span className="muted">({series.dps.length} points; click the chart to annotate a moment)</span>
      </figcaption>
      <div ref={box} className="obj-chart-plot" />
      <p className="obj-chart-hover muted" aria-live="polite">
        {hovered ? `Annotation ${formatTime(hovered.timestamp)}: ${hovered.content}` : '\u00a0'}
      </p>
    </figure>
  );
}
