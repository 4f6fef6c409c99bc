// Finding an object by name to pick it: a search box (POST /objects/search, the text matched
// literally, any case, after a pause in typing) with the first matches as buttons. One
// component for every place that picks objects this way (a parent, a link's end, a user's
// object access); what differs between them (labels, how a match reads, Enter) are props.
import { useState, type KeyboardEvent, type ReactNode } from 'react';
import { api, data } from '../api/client';
import { useApi } from '../api/use-api';
import { ErrorBanner } from './error-banner';
import { containsText } from './search-text';
import { useDebounced } from './use-debounced';

export interface ObjectHit {
  id: string;
  name?: string;
  path?: string;
}

export function ObjectSearch({ label, placeholder, limit, exclude = [], onPick, hitsLabel, listClassName, buttonClassName, hitLabel, hitContent, hitNote, noMatches, enterPicksFirst = false }: {
  /** The search box's accessible name. */
  label: string;
  placeholder: string;
  /** Matches shown at most. */
  limit: number;
  /** Ids never offered (already chosen); the search asks for that many more so `limit` still show. */
  exclude?: readonly string[];
  /** A match chosen; the box empties. */
  onPick: (hit: ObjectHit) => void;
  /** The list of matches' accessible name. */
  hitsLabel: string;
  listClassName: string;
  buttonClassName?: string;
  /** The accessible name of a match's button. */
  hitLabel: (hit: ObjectHit) => string;
  /** What a match's button shows. */
  hitContent: (hit: ObjectHit) => ReactNode;
  /** Shown after a match's button. */
  hitNote?: (hit: ObjectHit) => ReactNode;
  /** Said when nothing matches (nothing is said when absent). */
  noMatches?: (query: string) => ReactNode;
  /** Enter picks the first match instead of submitting the surrounding form. */
  enterPicksFirst?: boolean;
}) {
  const [text, setText] = useState('');
  // A later answer replaces an earlier one (useApi); one search per pause in typing.
  const query = useDebounced(text.trim(), 250);
  const found = useApi(async (): Promise<ObjectHit[]> => {
    if (!query) return [];
    const body = { search: { name: containsText(query) }, options: { limit: limit + exclude.length, fields: ['name', 'path'], sort: { name: 1 as const } } };
    return data(await api.POST('/node/api/objects/search', { body }));
  }, [query]);
  // Emptied (after a choice): no stale matches while the debounce catches up.
  const shown = text.trim() !== '' && query !== '';
  const hits = shown ? (found.data ?? []).filter((o) => !exclude.includes(o.id)).slice(0, limit) : [];

  function pick(hit: ObjectHit) {
    onPick(hit);
    setText('');
  }
  function onKey(e: KeyboardEvent<HTMLInputElement>) {
    if (!enterPicksFirst || e.key !== 'Enter') return;
    e.preventDefault();
    if (hits[0]) pick(hits[0]);
  }

  return (
    <>
      <input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={enterPicksFirst ? onKey : undefined}
        autoComplete={enterPicksFirst ? 'off' : undefined}
      />
      <ErrorBanner error={found.error} />
      {noMatches && shown && found.data && hits.length === 0 ? <p className="muted">{noMatches(query)}</p> : null}
      {hits.length > 0 ? (
        <ul className={listClassName} aria-label={hitsLabel}>
          {hits.map((o) => (
            <li key={o.id}>
              <button type="button" className={buttonClassName} aria-label={hitLabel(o)} onClick={() => pick(o)}>
                {hitContent(o)}
              </button>
              {hitNote?.(o)}
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
