// The logs' `filter` parameter is MongoDB-style JSON. It is checked here before it is sent,
// so a typo is named at once instead of costing a round trip (the server still has the last
// word on operators: its 400 is shown as it says).

export type ParsedFilter = { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string };

export function parseJsonFilter(text: string, label = 'Filter'): ParsedFilter {
  if (text.trim() === '') return { ok: true, value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `${label} is not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, message: `${label} must be a JSON object, e.g. {"field": "value"}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** Several conditions as one filter: none → undefined, one → itself, more → $and. */
export function allOf(parts: Array<Record<string, unknown> | undefined>): string | undefined {
  const list = parts.filter((p): p is Record<string, unknown> => p !== undefined && Object.keys(p).length > 0);
  if (list.length === 0) return undefined;
  return JSON.stringify(list.length === 1 ? list[0] : { $and: list });
}
