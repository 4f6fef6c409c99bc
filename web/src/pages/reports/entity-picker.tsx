// Finding objects by name to add to a report: the shared object search (components/
// object-search.tsx) with a Find button; each match named, then its Add button (Added once
// the report has it).
import { ObjectSearch } from '../../components/object-search';

const RESULTS = 20;

export function EntityPicker({ chosen, onAdd }: { chosen: ReadonlySet<string>; onAdd: (o: { id: string; name: string }) => void }) {
  return (
    <div className="rep-picker">
      <ObjectSearch
        find="Find objects"
        label="Object name"
        placeholder="part of a name"
        limit={RESULTS}
        order="stored"
        blankFindsAll
        onPick={(o) => onAdd({ id: o.id, name: o.name ?? o.id })}
        hitsLabel="Objects found"
        listClassName="rep-found"
        hitBefore={(o) => <span className="rep-found-name">{o.name ?? o.id} <span className="muted">{o.path && o.path !== o.name ? o.path : `#${o.id}`}</span></span>}
        hitLabel={(o) => `Add ${o.name ?? o.id}`}
        hitContent={(o) => (chosen.has(o.id) ? 'Added' : 'Add')}
        hitDisabled={(o) => chosen.has(o.id)}
        noMatches={() => 'No object has such a name.'}
        fullNote={`First ${RESULTS} shown; type more of the name to narrow.`}
      />
    </div>
  );
}
