// Narrowing the list: level, acknowledged or not, words in the text (the API's MongoDB-style
// `filter`), and on the history page the from/to range of when incidents were raised.
// Selects carry aria-label: inside their <label> they would be named by the label and the
// chosen option together.
import { useState, type FormEvent } from 'react';
import { containsText } from '../../components/search-text';
import { fromLocalInput } from '../../components/time-input';
import { CLEARED } from './types';
import type { Levels } from './use-levels';

export interface Query {
  filter?: string;
  from?: number;
  to?: number;
}

export function FilterBar({ levels, range, onApply }: { levels: Levels; range?: boolean; onApply: (q: Query) => void }) {
  const [level, setLevel] = useState('');
  const [acked, setAcked] = useState('');
  const [text, setText] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');

  const apply = (over: Partial<{ level: string; acked: string }> = {}) => {
    const l = over.level ?? level;
    const a = over.acked ?? acked;
    const f: Record<string, unknown> = {};
    // In history every incident is cleared (state 3): the level it had is lastState.
    if (l) f[range ? 'lastState' : 'state'] = Number(l);
    if (a) f.acknowledgedBy = { $exists: a === 'yes' };
    if (text.trim()) f.text = containsText(text.trim());
    onApply({ filter: Object.keys(f).length ? JSON.stringify(f) : undefined, from: range ? fromLocalInput(from) : undefined, to: range ? fromLocalInput(to) : undefined });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    apply();
  };

  return (
    <form className="row inc-filters" onSubmit={submit} aria-label="Filter incidents">
      <label className="field">
        <span>Level</span>
        <select aria-label="Level" value={level} onChange={(e) => (setLevel(e.target.value), apply({ level: e.target.value }))}>
          <option value="">Any level</option>
          {[...levels.values()].filter((l) => !range || Number(l.id) !== CLEARED).map((l) => (
            <option key={l.id} value={l.id}>
              {l.name}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Acknowledged</span>
        <select aria-label="Acknowledged" value={acked} onChange={(e) => (setAcked(e.target.value), apply({ acked: e.target.value }))}>
          <option value="">Either</option>
          <option value="yes">Acknowledged</option>
          <option value="no">Not acknowledged</option>
        </select>
      </label>
      <label className="field">
        <span>Text contains</span>
        <input type="search" value={text} maxLength={200} onChange={(e) => setText(e.target.value)} />
      </label>
      {range ? (
        <>
          <label className="field">
            <span>From</span>
            <input type="datetime-local" step={1} value={from} onChange={(e) => setFrom(e.target.value)} />
          </label>
          <label className="field">
            <span>To</span>
            <input type="datetime-local" step={1} value={to} onChange={(e) => setTo(e.target.value)} />
          </label>
        </>
      ) : null}
      <button type="submit">Apply filter</button>
    </form>
  );
}
