// Finding an object by name to pick it: a search box (POST /objects/search, the text matched
// literally, any case) and the first matches. One component for every place that picks objects
// this way (a parent, a link's end, a user's object access, a report's objects, a new
// incident's object); what differs between them are props:
// - the box: searching as one types (after a pause) or when a Find button is pressed; its label
//   said to screen readers only or shown;
// - the search: how many matches, which ids never to offer, sorted by name or in the server's
//   order, and whether an empty box lists the first objects or nothing;
// - the matches: a list of buttons or a drop-down (object-matches.tsx).
import { useState, type FormEvent, type KeyboardEvent } from 'react';
import { api, data } from '../api/client';
import { useApi } from '../api/use-api';
import { ErrorBanner } from './error-banner';
import { Field } from './field';
import { MatchList, MatchSelect, type MatchListOptions, type MatchSelectOptions, type ObjectHit } from './object-matches';
import { containsText } from './search-text';
import { useDebounced } from './use-debounced';

export type { ObjectHit } from './object-matches';

export type ObjectSearchProps = {
  /** The search box's label (its accessible name). */
  label: string;
  placeholder?: string;
  /** The label is shown above the box (with the hint under it) rather than said only. */
  labelShown?: boolean;
  hint?: string;
  maxLength?: number;
  /**
   * Search when asked, not as one types: the box goes in a search form of this accessible name
   * with a Find button, its label shown. A match picked leaves the matches standing.
   */
  find?: string;
  /** Matches shown at most. */
  limit: number;
  /** Ids never offered (already chosen); the search asks for that many more so `limit` still show. */
  exclude?: readonly string[];
  /** 'name' (default): matches sorted by name; 'stored': in the server's order. */
  order?: 'name' | 'stored';
  /** An empty search lists the first objects (else it lists nothing). */
  blankFindsAll?: boolean;
} & (MatchListOptions | MatchSelectOptions);

const PAUSE_MS = 250;

export function ObjectSearch(props: ObjectSearchProps) {
  const { label, placeholder, labelShown = false, hint, maxLength, find, limit, exclude = [], order = 'name', blankFindsAll = false } = props;
  const [text, setText] = useState('');
  // As one types: one search per pause in typing. With Find: the text last submitted, counted
  // so that the same text can be searched again.
  const typed = useDebounced(text.trim(), PAUSE_MS);
  const [submitted, setSubmitted] = useState<{ query: string; n: number }>();
  const query = find !== undefined ? submitted?.query : typed;
  // A later answer replaces an earlier one (useApi).
  const found = useApi(async (): Promise<ObjectHit[] | undefined> => {
    if (query === undefined || (query === '' && !blankFindsAll)) return undefined;
    const search = query ? { name: containsText(query) } : {};
    const options = { limit: limit + exclude.length, fields: ['name', 'path'], ...(order === 'name' ? { sort: { name: 1 as const } } : {}) };
    return data(await api.POST('/node/api/objects/search', { body: { search, options } }));
  }, [query, submitted?.n]);
  // Typing into an emptied box (after a pick): no stale matches while the pause runs. A refused
  // search leaves no earlier answer standing as if it were this one's.
  const current = find !== undefined || blankFindsAll || (text.trim() !== '' && typed !== '');
  const answer = current && !found.error ? found.data : undefined;
  const hits = (answer ?? []).filter((o) => !exclude.includes(o.id)).slice(0, limit);

  function pick(hit: ObjectHit) {
    if (props.select !== undefined) return;
    props.onPick(hit);
    if (find === undefined) setText('');
  }
  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    if (hits[0]) pick(hits[0]);
  }
  function submit(e: FormEvent) {
    e.preventDefault();
    setSubmitted((s) => ({ query: text.trim(), n: (s?.n ?? 0) + 1 }));
  }

  const enterPicks = props.select === undefined && props.enterPicksFirst === true;
  const shown = labelShown || find !== undefined;
  const input = (
    <input
      type="search"
      aria-label={shown ? undefined : label}
      placeholder={placeholder}
      value={text}
      maxLength={maxLength}
      onChange={(e) => setText(e.target.value)}
      onKeyDown={enterPicks ? onKey : undefined}
      autoComplete={enterPicks ? 'off' : undefined}
    />
  );
  const box = !shown ? input : <Field label={label} hint={hint}>{input}</Field>;
  return (
    <>
      {find !== undefined ? (
        <form className="row" onSubmit={submit} role="search" aria-label={find}>
          {box}
          <button type="submit" disabled={submitted !== undefined && found.loading}>Find</button>
        </form>
      ) : box}
      <ErrorBanner error={found.error} />
      {props.select === undefined
        ? <MatchList hits={hits} query={query ?? ''} searched={answer !== undefined} full={hits.length === limit} pick={pick} o={props} />
        : <MatchSelect hits={hits} loading={found.loading} o={props.select} />}
    </>
  );
}
