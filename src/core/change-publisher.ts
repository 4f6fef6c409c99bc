// How a service tells the other nodes of a cluster that something it keeps in memory changed
// (the change feed, modules/cluster/change-feed.ts): they re-read their copy.

export interface ChangePublisher {
  publish(topic: string, key: string, payload?: string): Promise<void>;
}

/** `write`, and once it has resolved (the change is stored), `topic` published on `feed`. */
export function publishing<A extends unknown[], R>(feed: ChangePublisher | undefined, topic: string, write: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  if (!feed) return write;
  return async (...args: A) => {
    const result = await write(...args);
    await feed.publish(topic, '');
    return result;
  };
}
