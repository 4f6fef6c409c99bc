// The templates of notification channels: `{{name}}` placeholders filled from a message's
// fields, and nothing else. Written here rather than taken from npm (mustache, handlebars): a
// channel's template is written by an administrator but rendered for every incident, so it
// must not run code, loop or include other templates, and its output must stay bounded. A
// placeholder names one field from a fixed list; an unknown name renders as nothing (the
// service refuses unknown names when the template is saved). Values are inserted through an
// escape chosen by the channel (JSON string content for JSON bodies, none for plain text).

/** Longest rendered text; past it the text is cut with an ellipsis. */
export const MAX_RENDERED_CHARS = 16_000;

const PLACEHOLDER = /\{\{\s*([A-Za-z][A-Za-z0-9_.]{0,63})\s*\}\}/g;

export type Escape = (value: string) => string;

export const noEscape: Escape = (v) => v;
/** The value as the inside of a JSON string (the template supplies the quotes). */
export const jsonEscape: Escape = (v) => JSON.stringify(v).slice(1, -1);
/** Telegram's HTML parse mode: text outside tags must not hold <, > or & unescaped. */
export const htmlEscape: Escape = (v) => v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Telegram's MarkdownV2: every reserved character outside markup is preceded by a backslash. */
export const markdownV2Escape: Escape = (v) => v.replace(/[_*[\]()~`>#+\-=|{}.!\\]/g, (c) => `\\${c}`);

/** The text with each known placeholder replaced by its escaped value, at most `maxChars` long. */
export function render(template: string, fields: Readonly<Record<string, string>>, escape: Escape = noEscape, maxChars = MAX_RENDERED_CHARS): string {
  let out = '';
  let last = 0;
  for (const m of template.matchAll(PLACEHOLDER)) {
    out += template.slice(last, m.index) + (Object.hasOwn(fields, m[1]!) ? escape(fields[m[1]!]!) : '');
    last = m.index! + m[0].length;
    // Bounded as it grows: a long template of long values stops here, not after building it all.
    if (out.length > maxChars) break;
  }
  if (out.length <= maxChars) out += template.slice(last);
  return out.length > maxChars ? out.slice(0, maxChars - 1) + '…' : out;
}

/** The placeholders a template names that are not in `known` (to refuse them when saved). */
export function unknownPlaceholders(template: string, known: ReadonlySet<string>): string[] {
  const names = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!);
  return [...new Set(names.filter((n) => !known.has(n)))];
}
