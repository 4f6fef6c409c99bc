// The rights of a user as a list of checkboxes, one per right the API knows.
import { RIGHTS, type Right } from './admin-types';

export function RightsChecklist({ value, onChange }: { value: readonly string[]; onChange: (v: Right[]) => void }) {
  const chosen = new Set(value);
  function toggle(r: Right, on: boolean) {
    // Kept in the list's order so a saved user reads the same way every time.
    onChange(RIGHTS.filter((x) => (x === r ? on : chosen.has(x))));
  }
  return (
    <fieldset className="adm-rights">
      <legend>Rights</legend>
      <div className="row">
        <button type="button" className="link" aria-label="Select all rights" onClick={() => onChange([...RIGHTS])}>All</button>
        <button type="button" className="link" aria-label="Clear all rights" onClick={() => onChange([])}>None</button>
      </div>
      <div className="adm-rights-grid">
        {RIGHTS.map((r) => (
          <label key={r}>
            <input type="checkbox" checked={chosen.has(r)} onChange={(e) => toggle(r, e.target.checked)} />
            {r}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
