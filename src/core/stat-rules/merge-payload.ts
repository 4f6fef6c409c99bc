// The `extend` action's merge: the incoming payload laid over the last one, so the stored last
// payload is the union of both. Objects merge key by key; anything else (numbers, strings,
// arrays) is replaced by the incoming value. Neither input is changed.

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function mergePayload(last: Readonly<Record<string, unknown>> | undefined, incoming: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...last };
  for (const key of Object.keys(incoming)) {
    const before = Object.hasOwn(out, key) ? out[key] : undefined;
    const next = incoming[key];
    out[key] = isObject(before) && isObject(next) ? mergePayload(before, next) : next;
  }
  return out;
}
