// How the object search (object-search.tsx) shows its matches: a list with a button per match
// (to pick a parent, a link's end, an object to give access to, an object to add to a report),
// or a drop-down that always holds one of them (the object of a new incident).
import { useEffect, useState, type ReactNode } from 'react';
import { Field } from './field';

export interface ObjectHit {
  id: string;
  name?: string;
  path?: string;
}

/** The matches as a list of buttons. */
export interface MatchListOptions {
  select?: undefined;
  /** A match's button pressed. */
  onPick: (hit: ObjectHit) => void;
  /** The list of matches' accessible name. */
  hitsLabel: string;
  listClassName: string;
  buttonClassName?: string;
  /** The accessible name of a match's button. */
  hitLabel: (hit: ObjectHit) => string;
  /** What a match's button shows. */
  hitContent: (hit: ObjectHit) => ReactNode;
  /** Shown before a match's button (the match named first, the button an action on it). */
  hitBefore?: (hit: ObjectHit) => ReactNode;
  /** Shown after a match's button. */
  hitNote?: (hit: ObjectHit) => ReactNode;
  /** A match that cannot be picked again (already added): its button is disabled. */
  hitDisabled?: (hit: ObjectHit) => boolean;
  /** Said when nothing matches (nothing is said when absent). */
  noMatches?: (query: string) => ReactNode;
  /** A last line when the list is full: there may be more matches than shown. */
  fullNote?: ReactNode;
  /** Enter in the box picks the first match instead of submitting the surrounding form. */
  enterPicksFirst?: boolean;
}

/** The matches as a drop-down, one of them always chosen while there are any. */
export interface MatchSelectOptions {
  select: {
    /** The drop-down's label. */
    label: string;
    /** An option's text. */
    optionText: (hit: ObjectHit) => string;
    /** The object the drop-down shows ('' while nothing matches); told whenever that changes. */
    onChange: (id: string) => void;
  };
}

export function MatchList({ hits, query, searched, full, pick, o }: { hits: ObjectHit[]; query: string; searched: boolean; full: boolean; pick: (hit: ObjectHit) => void; o: MatchListOptions }) {
  if (hits.length === 0) return o.noMatches && searched ? <p className="muted">{o.noMatches(query)}</p> : null;
  return (
    <ul className={o.listClassName} aria-label={o.hitsLabel}>
      {hits.map((hit) => (
        <li key={hit.id}>
          {o.hitBefore?.(hit)}
          <button type="button" className={o.buttonClassName} aria-label={o.hitLabel(hit)} disabled={o.hitDisabled?.(hit)} onClick={() => pick(hit)}>
            {o.hitContent(hit)}
          </button>
          {o.hitNote?.(hit)}
        </li>
      ))}
      {full && o.fullNote !== undefined ? <li className="muted">{o.fullNote}</li> : null}
    </ul>
  );
}

export function MatchSelect({ hits, loading, o }: { hits: ObjectHit[]; loading: boolean; o: MatchSelectOptions['select'] }) {
  // The one chosen while it is among the matches, else the first match: narrowing the search
  // past the choice moves to the first, widening it again brings the choice back.
  const [wanted, setWanted] = useState('');
  const chosen = hits.some((h) => h.id === wanted) ? wanted : (hits[0]?.id ?? '');
  const { onChange } = o;
  useEffect(() => onChange(chosen), [chosen, onChange]);
  return (
    <Field label={o.label}>
      <select aria-label={o.label} value={chosen} required onChange={(e) => setWanted(e.target.value)}>
        {hits.length === 0 ? <option value="">{loading ? 'Searching…' : 'No object matches'}</option> : null}
        {hits.map((h) => (
          <option key={h.id} value={h.id}>
            {o.optionText(h)}
          </option>
        ))}
      </select>
    </Field>
  );
}
