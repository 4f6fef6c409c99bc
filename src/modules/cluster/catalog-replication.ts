// The catalog on every node (SCALE-OUT.md invariant 2): each change this node commits is sent
// along the change feed as its writes (the rows as stored), and the other nodes take those
// writes into memory as if they had made them (Catalog.applyRemote), in feed order. Their read
// models built on the catalog (check index, visibility, search) follow as they do locally.
//
// Sent after the commit, in commit order (one chain): a node killed between the two leaves the
// others without that change until they restart; the database has it either way.
import type { Logger } from 'pino';
import type { CatalogWrite } from '../../storage/catalog-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ChangeFeed } from './change-feed.js';

export const CATALOG_CHANGED = 'catalog';
/** Writes per feed row: a bulk change of thousands of objects goes in several rows. */
const WRITES_PER_ROW = 500;

interface Payload {
  origin: string | undefined;
  writes: CatalogWrite[];
}

export function replicateCatalog(catalog: Catalog, feed: ChangeFeed, logger: Logger): { settle(): Promise<void> } {
  let chain: Promise<void> = Promise.resolve();
  catalog.onChange((writes, change) => {
    if (change.remote) return;
    // The audit log is read from the database, not from memory.
    const shared = writes.filter((w) => w.op !== 'audit');
    if (shared.length === 0) return;
    chain = chain.then(async () => {
      for (let i = 0; i < shared.length; i += WRITES_PER_ROW) {
        const payload: Payload = { origin: change.origin, writes: shared.slice(i, i + WRITES_PER_ROW) };
        await feed.publish(CATALOG_CHANGED, String(change.seq), JSON.stringify(payload));
      }
    });
  });
  feed.subscribe(CATALOG_CHANGED, async (_seq, payload) => {
    if (payload === undefined) return;
    const { origin, writes } = JSON.parse(payload) as Payload;
    await catalog.applyRemote(writes, origin).catch((err: unknown) => {
      logger.error({ err }, 'catalog: a change of another node could not be taken; this node shows it after a restart');
    });
  });
  return { settle: () => chain };
}
