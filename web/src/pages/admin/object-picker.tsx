// Picks objects by searching their names (POST /objects/search) and shows the chosen ones as
// removable chips with their names. Used for a user's object access (include / exclude). The
// search is the shared one (components/object-search.tsx); Enter picks the first match.
import { api, data } from '../../api/client';
import { ObjectSearch, type ObjectHit } from '../../components/object-search';

export interface PickedObject {
  id: string;
  name: string;
  path?: string;
}

const RESULTS = 10;
const describe = (o: ObjectHit): PickedObject => ({ id: o.id, name: o.name ?? `object ${o.id}`, path: o.path });

/** Names of objects known by id only (a user's saved objectPermissions). */
export async function objectsByIds(ids: readonly string[]): Promise<PickedObject[]> {
  if (ids.length === 0) return [];
  const found = data(await api.POST('/node/api/objects/search', { body: { search: { id: { $in: ids } }, options: { fields: ['name', 'path'], limit: ids.length } } }));
  const byId = new Map(found.map((o) => [o.id, describe(o)]));
  // An object deleted (or hidden) since keeps its id, so it can still be removed.
  return ids.map((id) => byId.get(id) ?? { id, name: `object ${id} (not found)` });
}

export function ObjectPicker({ label, value, onChange }: { label: string; value: PickedObject[]; onChange: (v: PickedObject[]) => void }) {
  return (
    <fieldset className="adm-picker">
      <legend>{label}</legend>
      <ul className="adm-chips" aria-label={`${label}: chosen objects`}>
        {value.length === 0 ? <li className="muted">none</li> : null}
        {value.map((o) => (
          <li key={o.id} className="adm-chip" title={o.path ?? o.name}>
            {o.name}
            <button type="button" aria-label={`Remove ${o.name}`} onClick={() => onChange(value.filter((v) => v.id !== o.id))}>×</button>
          </li>
        ))}
      </ul>
      <ObjectSearch
        label={`Search: ${label}`}
        placeholder="Search objects by name"
        limit={RESULTS}
        exclude={value.map((v) => v.id)}
        onPick={(o) => onChange([...value, describe(o)])}
        hitsLabel={`Matches: ${label}`}
        listClassName="adm-results"
        hitLabel={(o) => `Add ${o.path || describe(o).name}`}
        hitContent={(o) => <>{describe(o).name} <span className="muted">{o.path && o.path !== describe(o).name ? o.path : ''}</span></>}
        enterPicksFirst
      />
    </fieldset>
  );
}
