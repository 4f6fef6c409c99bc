// The rights of a user as a list of checkboxes, one per right the server knows (it sends them,
// in the order of its documents, with the UI settings).
import { useSession } from '../../auth/session';
import type { Right } from './admin-types';

export function RightsChecklist({ value, onChange }: { value: readonly string[]; onChange: (v: Right[]) => void }) {
  const { settings } = useSession();
  // A right the user holds that the server no longer lists still shows, so it can be taken away.
  const rights = [...new Set([...settings.rights, ...value])] as Right[];
  const chosen = new Set(value);
  function toggle(r: Right, on: boolean) {
    // Kept in the list's order so a saved user reads the same way every time.
    onChange(rights.filter((x) => (x === r ? on : chosen.has(x))));
  }
  return (
    <fieldset className="adm-rights">
      <legend>Rights</legend>
      <div className="row">
        <button type="button" className="link" aria-label="Select all rights" onClick={() => onChange([...rights])}>All</button>
        <button type="button" className="link" aria-label="Clear all rights" onClick={() => onChange([])}>None</button>
      </div>
      {rights.length === 0 ? <p className="muted">The server sent no list of rights.</p> : null}
      <div className="adm-rights-grid">
        {rights.map((r) => (
          <label key={r}>
            <input type="checkbox" checked={chosen.has(r)} onChange={(e) => toggle(r, e.target.checked)} />
            {r}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
