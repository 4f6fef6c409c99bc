// What a check definition shows to someone who may read the object but not manage its checks:
// everything but its secrets (SNMP community and v3 keys, HTTP headers' values and body).
const HIDDEN = '********';

export function redactCheckSecrets(definition: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...definition };
  if (typeof out.community === 'string') out.community = HIDDEN;
  if (typeof out.body === 'string') out.body = HIDDEN;
  if (out.headers && typeof out.headers === 'object' && !Array.isArray(out.headers)) {
    out.headers = Object.fromEntries(Object.keys(out.headers).map((k) => [k, HIDDEN]));
  }
  if (out.user && typeof out.user === 'object' && !Array.isArray(out.user)) {
    const user: Record<string, unknown> = { ...(out.user as Record<string, unknown>) };
    for (const key of ['authKey', 'privKey']) if (key in user) user[key] = HIDDEN;
    out.user = user;
  }
  return out;
}

/** The stored text of a service property as such a reader sees it (unchanged when not a JSON object). */
export function redactPropertyText(value: string): string {
  if (!value.trimStart().startsWith('{')) return value;
  try {
    const parsed: unknown = JSON.parse(value);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return value;
    return JSON.stringify(redactCheckSecrets(parsed as Record<string, unknown>));
  } catch {
    return value;
  }
}
