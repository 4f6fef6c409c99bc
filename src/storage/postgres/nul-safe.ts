// PostgreSQL text cannot hold the NUL character (U+0000), nor can jsonb (it refuses "\u0000"),
// where SQLite's TEXT takes it. A trap's octet string, an MQTT payload or a login typed into a
// Basic header may carry one; refusing the row would lose a whole batch of records (or a
// security event an attacker chose to hide). So what filters and indexes look at gets U+FFFD in
// its place (conditions are mapped the same way, so they still find the record), and a record
// that had one keeps its exact JSON text in a column beside the jsonb, read back instead.
const NUL = /\u0000/g;
const REPLACEMENT = '\uFFFD';

/** A string PostgreSQL's text accepts: NUL as U+FFFD. */
export const nulSafe = (s: string): string => (s.includes('\u0000') ? s.replace(NUL, REPLACEMENT) : s);

// In JSON.stringify's output a NUL is the escape \u0000 after an even number of backslashes.
const ESCAPED_NUL = /(?<!\\)((?:\\\\)*)\\u0000/g;

/**
 * The JSON text of a record for a jsonb column, and the exact text to keep beside it when the
 * two differ (null when they do not: almost always).
 */
export function jsonbOf(json: string): { jsonb: string; exact: string | null } {
  if (!json.includes('\\u0000')) return { jsonb: json, exact: null };
  const jsonb = json.replace(ESCAPED_NUL, '$1\\ufffd');
  return { jsonb, exact: jsonb === json ? null : json };
}
