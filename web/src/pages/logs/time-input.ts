// <input type="datetime-local"> speaks local wall-clock text; the API speaks milliseconds.
// These convert between the two, blank meaning "no bound".

const pad = (n: number) => String(n).padStart(2, '0');

/** `YYYY-MM-DDTHH:mm:ss` in local time, as datetime-local inputs take it. */
export function toLocalInput(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Milliseconds of a datetime-local value, undefined when blank or not a time. */
export function fromLocalInput(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const ms = new Date(text).getTime();
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}
