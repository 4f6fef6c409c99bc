// Lists that are paged (limit at most and by default 10,000, skip) tell a client how many there
// are in all, so one that never pages can tell the answer was cut (issue 16): the header
// `X-Total-Count` always (what the caller may see, hidden entities not counted), and a
// `Link: <...?skip=N&limit=M>; rel="next"` while more remain after this page.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendRecords } from './record-list.js';
import type { PagedList } from '../core/input/record-list.js';

export const TOTAL_HEADER = 'X-Total-Count';

/** Sets the headers of a page of `total` items that holds `count` from `skip` on, `limit` at most. */
export function pageHeaders(req: FastifyRequest, reply: FastifyReply, page: { skip: number; limit: number }, count: number, total: number): void {
  reply.header(TOTAL_HEADER, String(total));
  const nextSkip = page.skip + count;
  if (count === 0 || nextSkip >= total) return;
  // The request's own path and query, with skip and limit of the next page.
  const url = new URL(req.url, 'http://x');
  url.searchParams.delete('skip');
  url.searchParams.delete('limit');
  url.searchParams.append('skip', String(nextSkip));
  url.searchParams.append('limit', String(page.limit));
  reply.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
}

/** Sends a page with its headers (record-list.ts sends the records). */
export function sendPage<T>(req: FastifyRequest, reply: FastifyReply, page: { skip: number; limit: number }, list: PagedList<T>): FastifyReply {
  pageHeaders(req, reply, page, list.items.length, list.total);
  return sendRecords(reply, list);
}
