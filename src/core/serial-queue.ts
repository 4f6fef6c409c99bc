// Work that must not interleave (two creates passing one name check, two engine passes over
// the same states) runs one piece at a time, in the order it was asked for. A failed piece
// does not stop the ones after it: its caller gets the rejection, `onError` hears of it.

export type Serial = <T>(work: () => Promise<T>) => Promise<T>;

export function serialQueue(onError: (err: unknown) => void = () => undefined): Serial {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = tail.then(work, work);
    tail = next.catch(onError);
    return next;
  };
}
