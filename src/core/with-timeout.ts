// A promise bounded in time: rejects with `message` when `p` has not settled within `ms` (the
// timer is cleared either way). What was started goes on; the caller decides what to end.
export function withTimeout<T>(p: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))])
    .finally(() => clearTimeout(timer));
}
