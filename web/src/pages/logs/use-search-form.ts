// The state both log search forms keep: the draft being edited, and its JSON filter checked
// before anything is sent (a typo is named at once; the server still has the last word).
import { useState, type FormEvent } from 'react';
import { parseJsonFilter } from './json-filter';

export function useSearchForm<D extends { filter: string }>(initial: D, empty: D, onApply: (d: D, extra: Record<string, unknown> | undefined) => void) {
  const [d, setD] = useState(initial);
  const [invalid, setInvalid] = useState<string>();
  const set = <K extends keyof D>(k: K, v: D[K]) => setD((old) => ({ ...old, [k]: v }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = parseJsonFilter(d.filter);
    if (!parsed.ok) {
      setInvalid(parsed.message);
      return;
    }
    setInvalid(undefined);
    onApply(d, parsed.value);
  }

  function reset() {
    setD(empty);
    setInvalid(undefined);
    onApply(empty, undefined);
  }

  return { d, set, invalid, submit, reset };
}
