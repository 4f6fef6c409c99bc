// The server names a bad element of a list it was sent by its index (`[2].metric: …`,
// `bulk[0].modify: …`); this adds how the page names that element ("chart 3: rack-1 — cpu"),
// so the operator knows which one to fix.
import { ApiError } from '../api/client';

/** `listName` is what stands before `[i]` in the server's message ('' for a bare array). */
export function nameTheItem(err: unknown, listName: string, names: readonly string[], noun: string): unknown {
  if (!(err instanceof ApiError)) return err;
  const m = new RegExp(`^${listName}\\[(\\d+)\\]`).exec(err.message);
  const i = m ? Number(m[1]) : -1;
  const name = names[i];
  return name !== undefined ? new ApiError(err.status, err.code, `${err.message} (${noun} ${i + 1}: ${name})`) : err;
}
