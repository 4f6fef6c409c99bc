// <input type="datetime-local"> speaks local wall-clock text; the API speaks epoch ms. These
// convert between the two, blank meaning "no time" (no bound, never expires, …).
import { formatTime } from './format';

/** `YYYY-MM-DDTHH:mm:ss` in local time, as datetime-local inputs take it; '' for no time. */
export function toLocalInput(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  return formatTime(ms).replace(' ', 'T');
}

/** Milliseconds of a datetime-local value; undefined when blank or not a time (the API takes none before 1970). */
export function fromLocalInput(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const ms = new Date(text).getTime();
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
