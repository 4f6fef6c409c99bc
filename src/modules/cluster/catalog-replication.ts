// The catalog on every node (SCALE-OUT.md invariant 2): each change this node commits is sent
// along the change feed as its writes (the rows as stored), and the other nodes take those
// writes into memory as if they had made them (Catalog.applyRemote), in feed order. Their read
// models built on the catalog (check index, visibility, search) follow as they do locally.
//
// The feed rows are stored in the transaction of the change itself (an outbox): the other
// nodes hear of every change that committed, and of none that did not, even when this node
// dies or loses the database right after the commit.
import type { Logger } from 'pino';
import type { CatalogWrite } from '../../storage/catalog-types.js';
import type { FeedRow } from '../../storage/change-feed-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { ChangeFeed } from './change-feed.js';

export const CATALOG_CHANGED = 'catalog';
/** Writes per feed row: a bulk change of thousands of objects goes in several rows. */
const WRITES_PER_ROW = 500;

interface Payload {
  origin: string | undefined;
  writes: CatalogWrite[];
}

export function replicateCatalog(catalog: Catalog, feed: ChangeFeed, nodeId: string, logger: Logger): void {
  catalog.sendChangesWith((writes, seq, origin) => {
    // The audit log is read from the database, not from memory.
    const shared = writes.filter((w) => w.op !== 'audit');
    const rows: FeedRow[] = [];
    for (let i = 0; i < shared.length; i += WRITES_PER_ROW) {
      const payload: Payload = { origin, writes: shared.slice(i, i + WRITES_PER_ROW) };
      rows.push({ topic: CATALOG_CHANGED, key: String(seq), origin: nodeId, payload: JSON.stringify(payload) });
    }
    return rows;
  });
  feed.subscribe(CATALOG_CHANGED, async (_seq, payload) => {
    if (payload === undefined) return;
    const { origin, writes } = JSON.parse(payload) as Payload;
    await catalog.applyRemote(writes, origin).catch((err: unknown) => {
      logger.error({ err }, 'catalog: a change of another node could not be taken; this node shows it after a restart');
    });
  });
}
