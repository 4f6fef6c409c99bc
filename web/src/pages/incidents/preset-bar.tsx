// Saved layouts of a table (GET/POST/PUT/DELETE /presets under the page's key): choosing one
// applies it at once; saving under the name of one's own preset replaces it (PUT), another name
// makes a new one (POST); deleting removes the chosen one.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { useSession } from '../../auth/session';
import { ErrorBanner } from '../../components/error-banner';
import { useAction } from '../../components/use-action';
import { fromPresetData, toPresetData, type TableLayout } from './table-layout';
import { PRESET_KEY, type Scope } from './types';

/** One user's presets for one table are few; more than this many is not a picker any more. */
const MAX_PRESETS = 200;

export function PresetBar({ scope, layout, onApply }: { scope: Scope; layout: TableLayout; onApply: (l: TableLayout) => void }) {
  const session = useSession();
  const key = PRESET_KEY[scope];
  const presets = useApi(async () => data(await api.GET('/node/api/presets', { params: { query: { key, limit: MAX_PRESETS } } })), [key]);
  const [chosen, setChosen] = useState('');
  const [name, setName] = useState('');
  const [shared, setShared] = useState(false);
  const action = useAction();
  const busy = action.busy;
  const list = presets.data ?? [];
  const current = list.find((p) => p.id === chosen);
  const mayChange = (owner: string) => owner === session.user?.id || session.can('manage-users');

  const choose = (id: string) => {
    setChosen(id);
    const p = list.find((x) => x.id === id);
    if (p) {
      onApply(fromPresetData(scope, p.data));
      setName(p.name);
      setShared(p.shared);
    }
  };

  const save = (e: FormEvent) => {
    e.preventDefault();
    void action.run(async () => {
      // The generated type of `data` is Record<string, never> (the server's schema is a bare
      // {type: object}); the server takes any object and validates the layout itself.
      const body = { name: name.trim(), key, data: { ...toPresetData(layout) }, shared };
      const own = list.find((p) => p.name === body.name && p.owner === session.user?.id);
      const saved = own
        ? data(await api.PUT('/node/api/presets/{id}', { params: { path: { id: own.id } }, body }))
        : data(await api.POST('/node/api/presets', { body }));
      presets.reload();
      setChosen(saved.id);
    });
  };

  const remove = () =>
    current &&
    void action.run(async () => {
      await api.DELETE('/node/api/presets/{id}', { params: { path: { id: current.id } } });
      setChosen('');
      presets.reload();
    });

  return (
    <div className="inc-presets">
      <div className="row inc-presets-row">
        <label className="field">
          <span>Preset</span>
          <select aria-label="Preset" value={chosen} onChange={(e) => choose(e.target.value)} disabled={presets.loading && !presets.data}>
            <option value="">{list.length === 0 ? 'No presets saved' : 'Choose a preset…'}</option>
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
                {p.shared ? ' (shared)' : ''}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="danger" disabled={!current || busy || !mayChange(current.owner)} onClick={remove}>
          Delete preset
        </button>
        <form className="row" onSubmit={save}>
          <label className="field">
            <span>Preset name</span>
            <input value={name} required maxLength={200} onChange={(e) => setName(e.target.value)} />
          </label>
          <label className="inc-check">
            <input type="checkbox" checked={shared} onChange={(e) => setShared(e.target.checked)} /> Shared
          </label>
          <button type="submit" disabled={busy || name.trim() === ''}>
            Save preset
          </button>
        </form>
      </div>
      <ErrorBanner error={action.error ?? presets.error} />
    </div>
  );
}
