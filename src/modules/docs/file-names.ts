// What a client says about an uploaded file (its name, its media type) is stored only in a
// shape that cannot break the headers it is later served with, nor reach another path.
export const MAX_NAME_LENGTH = 255;
const DEFAULT_NAME = 'document';
const DEFAULT_TYPE = 'application/octet-stream';
// RFC 6838 type and subtype names.
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** A name to show and to download as: no control characters, at most 255 characters; never empty. */
export function safeName(given: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  const clean = (given ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return [...clean].slice(0, MAX_NAME_LENGTH).join('') || DEFAULT_NAME;
}

/** An uploaded file's name: its last path segment only (a browser may send C:\fakepath\x.pdf). */
export const safeFileName = (given: string | undefined): string => safeName((given ?? '').split(/[/\\]/).pop());

/** The media type without its parameters, lower case; anything else is plain bytes. */
export function safeContentType(given: string | undefined): string {
  const type = (given ?? '').split(';')[0]!.trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : DEFAULT_TYPE;
}

/**
 * `attachment` (never rendered in our origin) with the name twice: an ASCII fallback with
 * quotes and backslashes replaced, and the exact name percent-encoded (RFC 6266 / 5987).
 */
export function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}
