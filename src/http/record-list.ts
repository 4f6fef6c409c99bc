// Sending a list of records. A page of up to a thousand goes out as usual; a longer one (a
// client asking for all 10,000 children at once) is written as a stream of JSON text built a
// slice at a time, so its records are short-lived garbage instead of a large array held (and
// promoted to the old heap) while the whole answer is serialised.
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

import type { RecordList } from '../core/input/record-list.js';

export const STREAM_OVER = 1000;
const CHUNK_CHARS = 64 * 1024;

function* jsonArray<T>({ items, view }: RecordList<T>): Generator<string> {
  let part = '[';
  for (let i = 0; i < items.length; i++) {
    part += (i === 0 ? '' : ',') + JSON.stringify(view(items[i]!));
    if (part.length >= CHUNK_CHARS) {
      yield part;
      part = '';
    }
  }
  yield part + ']';
}

export function sendRecords<T>(reply: FastifyReply, list: RecordList<T>): FastifyReply {
  if (list.items.length <= STREAM_OVER) return reply.send(list.items.map(list.view));
  return reply.type('application/json; charset=utf-8').send(Readable.from(jsonArray(list), { objectMode: false }));
}
