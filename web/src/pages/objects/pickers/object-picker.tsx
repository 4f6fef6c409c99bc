// Choosing an object by name, to add a parent or pick a link's end: the shared object search
// (components/object-search.tsx), each match a link-styled button followed by its path.
import { ObjectSearch } from '../../../components/object-search';
import './pickers.css';

const SHOWN = 8;

export interface Picked {
  id: string;
  name: string;
}

export function ObjectPicker({ label, onPick, exclude = [] }: { label: string; onPick: (o: Picked) => void; exclude?: string[] }) {
  return (
    <div className="pick-object">
      <ObjectSearch
        label={label}
        placeholder="Type a name…"
        limit={SHOWN}
        exclude={exclude}
        onPick={(o) => onPick({ id: o.id, name: o.name ?? o.id })}
        hitsLabel={`${label}: matches`}
        listClassName="pick-hits"
        buttonClassName="link"
        hitLabel={(o) => `Choose ${o.name ?? o.id}${o.path ? ` (${o.path})` : ''}`}
        hitContent={(o) => o.name ?? o.id}
        hitNote={(o) => <>{' '}<span className="muted">{o.path || '/'}</span></>}
        noMatches={(query) => <>No object name contains “{query}”.</>}
      />
    </div>
  );
}
