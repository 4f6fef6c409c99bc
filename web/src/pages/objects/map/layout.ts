// Where the map puts its nodes: on a circle while there are few (links between them then
// cross the middle, where they are easy to follow), on a grid once a circle gets crowded.
export interface Placed {
  x: number;
  y: number;
}

export interface Layout {
  width: number;
  height: number;
  at: Placed[];
}

export const NODE_RADIUS = 18;
const CIRCLE_MAX = 16;
const CELL_W = 130;
const CELL_H = 96;
const MARGIN = 60;

export function layout(count: number): Layout {
  if (count === 0) return { width: 400, height: 200, at: [] };
  if (count === 1) return { width: 300, height: 200, at: [{ x: 150, y: 90 }] };
  if (count <= CIRCLE_MAX) {
    // Neighbours on the circle stay about one grid cell apart.
    const r = Math.max(110, (count * CELL_W) / (2 * Math.PI));
    const size = 2 * (r + MARGIN + 20);
    const c = size / 2;
    const at = Array.from({ length: count }, (_, i) => {
      const a = -Math.PI / 2 + (2 * Math.PI * i) / count;
      return { x: c + r * Math.cos(a), y: c + r * Math.sin(a) };
    });
    return { width: size, height: size, at };
  }
  const cols = Math.ceil(Math.sqrt(count * 1.5));
  const rows = Math.ceil(count / cols);
  const at = Array.from({ length: count }, (_, i) => ({ x: MARGIN + (i % cols) * CELL_W, y: MARGIN - 20 + Math.floor(i / cols) * CELL_H }));
  return { width: 2 * MARGIN + (cols - 1) * CELL_W, height: 2 * MARGIN + (rows - 1) * CELL_H, at };
}
