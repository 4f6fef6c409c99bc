// The breadcrumb of the map: the objects "Show children" went down through, each a button back
// up to its children.
import type { Selection } from '../tree/types';

export function MapTrail({ trail, onUp }: { trail: Selection[]; onUp: (index: number) => void }) {
  if (trail.length < 2) return null;
  return (
    <nav aria-label="Map path" className="obj-map-trail">
      <ol>
        {trail.map((s, i) => (
          <li key={`${s.id}-${i}`}>
            {i < trail.length - 1 ? (
              <button type="button" className="link" onClick={() => onUp(i)}>
                {s.name}
              </button>
            ) : (
              <strong aria-current="location">{s.name}</strong>
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
