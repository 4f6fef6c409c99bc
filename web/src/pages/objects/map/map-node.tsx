// One object on the map: a link to its page (click or Enter) and, beside it, a small
// "Show children" button that maps that object's children instead.
import type { KeyboardEvent, MouseEvent } from 'react';
import { NODE_RADIUS, type Placed } from './layout';

interface Props {
  id: string;
  name: string;
  stateName: string;
  color: string;
  at: Placed;
  onOpen: (e: MouseEvent) => void;
  onShowChildren: () => void;
  /** Set while a maintenance window covers the object: what it says (window, end). */
  maintenance?: string;
}

export function MapNode({ id, name, stateName, color, at, onOpen, onShowChildren, maintenance }: Props) {
  const key = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    e.preventDefault();
    onShowChildren();
  };
  const bx = at.x + NODE_RADIUS + 4;
  const by = at.y - NODE_RADIUS;
  return (
    <g>
      <a href={`/objects/${id}`} onClick={onOpen} aria-label={`${name}: ${stateName}${maintenance ? `, ${maintenance}` : ''}`} className="obj-map-node">
        <title>{`${name} — ${stateName}${maintenance ? ` — ${maintenance}` : ''}`}</title>
        <circle cx={at.x} cy={at.y} r={NODE_RADIUS} fill={color} data-object-id={id} className={maintenance ? 'obj-map-maint' : undefined} />
        {maintenance ? (
          <text x={at.x} y={at.y + NODE_RADIUS + 29} textAnchor="middle" className="obj-map-maint-label">
            in maintenance
          </text>
        ) : null}
        <text x={at.x} y={at.y + NODE_RADIUS + 15} textAnchor="middle">
          {name.length > 18 ? `${name.slice(0, 17)}…` : name}
        </text>
      </a>
      {/* SVG has no <button>: a focusable group with the button role and its keys. */}
      <g role="button" tabIndex={0} aria-label={`Show children of ${name}`} className="obj-map-drill" onClick={onShowChildren} onKeyDown={key}>
        <title>{`Show the children of ${name}`}</title>
        <circle cx={bx} cy={by} r={9} />
        <text x={bx} y={by + 4} textAnchor="middle">
          ▾
        </text>
      </g>
    </g>
  );
}
