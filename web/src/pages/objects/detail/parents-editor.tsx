// The parents of an object as chips (remove with ×) and a name search to add one. The server
// refuses a parent that would make a cycle (400); the dialog shows that answer.
import { ObjectPicker, type Picked } from '../pickers/object-picker';

export function ParentsEditor({ self, parents, onChange }: { self: string; parents: Picked[]; onChange: (next: Picked[]) => void }) {
  return (
    <fieldset className="obj-tag-picker">
      <legend>Parents</legend>
      {parents.length === 0 ? <p className="muted">No parent: the object would be left out of the tree.</p> : null}
      <ul className="pick-chips" aria-label="Parents">
        {parents.map((p) => (
          <li key={p.id} className="pick-chip">
            {p.name}
            <button type="button" aria-label={`Remove parent ${p.name}`} onClick={() => onChange(parents.filter((x) => x.id !== p.id))}>
              ×
            </button>
          </li>
        ))}
      </ul>
      <ObjectPicker label="Add a parent" exclude={[self, ...parents.map((p) => p.id)]} onPick={(o) => onChange([...parents, o])} />
    </fieldset>
  );
}
