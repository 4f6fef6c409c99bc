// The one mask every route shows in place of a secret, and what it means for a URL.
// api-extensions.md "Users": secrets are shown as `********` to readers without
// manage-service-properties; a trigger run (the log of what was sent) masks a URL's
// credentials for everyone.

export const MASK = '********';

/** The right that lets a reader see secrets in clear (and write them back). */
export const SECRETS_RIGHT = 'manage-service-properties';

/** True when a reader with these rights sees secrets in clear. */
export const readsSecrets = (rights: ReadonlySet<string>): boolean => rights.has(SECRETS_RIGHT);

/** True when the text carries the mask (a shown value sent back). */
export const carriesMask = (text: string): boolean => text.includes(MASK);

/**
 * The URL with its credentials masked: user info (user and password), every query parameter's
 * value (a parameter without `=` is masked whole: `?SECRET` is common) and any fragment. The
 * scheme, host, port, path and the parameters' names stay, so readers still see where it goes.
 * A text that is not a URL is masked whole: nothing in it can be told safe.
 */
export function maskUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return MASK;
  }
  if (u.username !== '') u.username = MASK;
  if (u.password !== '') u.password = MASK;
  if (u.search.length > 1) {
    // Names kept byte for byte: URLSearchParams would re-encode the whole query.
    u.search = u.search.slice(1).split('&').map((part) => {
      if (part === '') return part;
      const eq = part.indexOf('=');
      return eq < 0 ? MASK : `${part.slice(0, eq)}=${MASK}`;
    }).join('&');
  }
  if (u.hash.length > 1) u.hash = MASK;
  return u.toString();
}

/** Header values masked, names kept. */
export function maskHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((k) => [k, MASK]));
}
