import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compressSync } from 'snappy';
import { AppError } from '../../errors.js';
import { LABEL_OVERHEAD_BYTES, MAX_LABELS_PER_SERIES, decodeWriteRequest, measureWriteRequest, snappyDeclaredLength, writeRequestPoints } from './prometheus-write.js';
import { WriteRequest } from './remote-write-proto.js';

const code = (c: string) => (e: unknown) => e instanceof AppError && e.code === c;

test('the snappy header is the uncompressed length as a varint', () => {
  assert.equal(snappyDeclaredLength(compressSync(Buffer.alloc(300, 7))), 300);
  assert.equal(snappyDeclaredLength(new Uint8Array([0x00])), 0);
  assert.equal(snappyDeclaredLength(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0x0f])), 0xffffffff);
  assert.equal(snappyDeclaredLength(new Uint8Array([0x80, 0x80])), undefined, 'cut short');
  assert.equal(snappyDeclaredLength(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0x01])), undefined, 'longer than 32 bits');
});

test('a declared size past the limit is a 413; not snappy or not protobuf a 400', () => {
  assert.throws(() => decodeWriteRequest(compressSync(Buffer.alloc(5000)), { maxDecompressedBytes: 4096, maxSamples: 1 }), code('PayloadTooLarge'));
  assert.throws(() => decodeWriteRequest(new Uint8Array([0x05, 0xff, 0xff]), { maxDecompressedBytes: 4096, maxSamples: 1 }), code('BadRequest'));
  assert.throws(() => decodeWriteRequest(compressSync(Buffer.from([0x0a, 0xff, 0x01])), { maxDecompressedBytes: 4096, maxSamples: 1 }), code('BadRequest'));
  assert.deepEqual(decodeWriteRequest(compressSync(Buffer.alloc(0)), { maxDecompressedBytes: 4096, maxSamples: 1 }).timeseries, []);
});

test('series become points; entity, job, instance and __ labels stay out of the name; skips are counted', () => {
  const request = {
    timeseries: [
      { labels: [{ name: '__name__', value: 'up' }, { name: 'job', value: 'j' }, { name: 'instance', value: 'i' }, { name: 'entity', value: '4' }, { name: '__meta', value: 'x' }], samples: [{ value: 1, timestamp: 10 }] },
      { labels: [{ name: '__name__', value: 'up' }], samples: [{ value: 1, timestamp: 10 }, { value: 2, timestamp: 20 }] },
      { labels: [{ name: 'entity', value: '4' }], samples: [{ value: 1, timestamp: 10 }] },
      { labels: [{ name: '__name__', value: 'x' }, { name: 'entity', value: '4' }], samples: [{ value: NaN, timestamp: 10 }, { value: -Infinity, timestamp: 10 }] },
    ],
  };
  const { points, samples, skipped } = writeRequestPoints(request, 'entity', 100);
  assert.deepEqual(points, [{ entity: '4', metric: 'up', timestamp: 10, value: 1 }]);
  assert.equal(samples, 6);
  assert.deepEqual(skipped, { noEntityLabel: 2, invalidName: 1, nonFinite: 2, stale: 0 });
  assert.throws(() => writeRequestPoints(request, 'entity', 5), code('PayloadTooLarge'));
});

// Hand-made protobuf: a length-delimited field, and the message of one series.
const varint = (n: number): number[] => {
  const out: number[] = [];
  for (; n >= 0x80; n = Math.floor(n / 128)) out.push((n % 128) | 0x80);
  return [...out, n];
};
const field = (tag: number, content: Buffer) => Buffer.concat([Buffer.from([tag, ...varint(content.length)]), content]);
const repeat = (bytes: number[], times: number) => Buffer.alloc(bytes.length * times).fill(Buffer.from(bytes));
const limits = { maxDecompressedBytes: 16 * 1024 * 1024, maxSamples: 50_000 };

test('measureWriteRequest counts series, labels and samples as decoding finds them', () => {
  const raw = Buffer.from(WriteRequest.encode(WriteRequest.fromObject({
    timeseries: [
      { labels: [{ name: '__name__', value: 'a' }, { name: 'entity', value: '1' }], samples: [{ value: 1, timestamp: 1 }, { value: 2, timestamp: 2 }] },
      { labels: [], samples: [] },
    ],
  })).finish());
  assert.deepEqual(measureWriteRequest(raw, limits), { series: 2, labels: 2, samples: 2 });
  // Unknown fields (metadata = 3; exemplars = 3 in a series) and a known field with another
  // wire type (timeseries as a varint) are skipped, as the decoder skips them.
  const odd = Buffer.concat([raw, field(0x1a, Buffer.from('meta')), Buffer.from([0x08, 0x05]), field(0x0a, field(0x1a, Buffer.from('ex')))]);
  assert.deepEqual(measureWriteRequest(odd, limits), { series: 3, labels: 2, samples: 2 });
  assert.equal((WriteRequest.decode(odd) as unknown as { timeseries: unknown[] }).timeseries.length, 3);
  // A label whose length runs past its series is malformed, for the walk as for the decoder.
  assert.throws(() => measureWriteRequest(field(0x0a, Buffer.from([0x0a, 0x05, 0x00])), limits), RangeError);
  assert.throws(() => decodeWriteRequest(compressSync(field(0x0a, Buffer.from([0x0a, 0x05, 0x00]))), limits), code('BadRequest'));
});

test('many empty series (0a 00 repeated, ~21:1 under snappy) are a 413 before anything is decoded, and quickly', () => {
  const raw = repeat([0x0a, 0x00], 8_000_000);
  const body = compressSync(raw);
  assert.ok(body.length < 1024 * 1024, `${body.length} bytes on the wire`);
  const started = performance.now();
  assert.throws(() => decodeWriteRequest(body, limits), (e) => code('PayloadTooLarge')(e) && /50000 series/.test((e as Error).message));
  assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
  assert.equal(measureWriteRequest(repeat([0x0a, 0x00], 50_000), limits).series, 50_000, 'maxSamples series are fine');
});

test('more labels than a series may carry, or past the label budget, are a 413', () => {
  const labels = (n: number) => field(0x0a, repeat([0x0a, 0x00], n));
  assert.equal(measureWriteRequest(labels(MAX_LABELS_PER_SERIES), limits).labels, MAX_LABELS_PER_SERIES);
  assert.throws(() => decodeWriteRequest(compressSync(labels(4_000_000)), limits), (e) => code('PayloadTooLarge')(e) && /more than 64 labels/.test((e as Error).message));
  // 64 empty labels a series, in as many series as allowed: the budget (twice the decompressed
  // limit, an empty label counted as the overhead alone) stops them first.
  const small = { maxDecompressedBytes: 64 * 1024, maxSamples: 50_000 };
  const fit = Math.floor((2 * small.maxDecompressedBytes) / LABEL_OVERHEAD_BYTES);
  const series = (count: number) => repeat([...field(0x0a, repeat([0x0a, 0x00], 64))], count);
  assert.equal(measureWriteRequest(series(Math.floor(fit / 64)), small).labels, Math.floor(fit / 64) * 64);
  assert.throws(() => measureWriteRequest(series(Math.ceil(fit / 64) + 1), small), (e) => code('PayloadTooLarge')(e) && /label budget/.test((e as Error).message));
});

test('samples past maxSamples are a 413 before decoding', () => {
  const sample = [...field(0x12, Buffer.from([0x09, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0x10, 0x01]))];
  const raw = field(0x0a, repeat(sample, 11));
  assert.equal(measureWriteRequest(raw, { maxDecompressedBytes: 4096, maxSamples: 11 }).samples, 11);
  assert.throws(() => measureWriteRequest(raw, { maxDecompressedBytes: 4096, maxSamples: 10 }), (e) => code('PayloadTooLarge')(e) && /11|samples/.test((e as Error).message));
  assert.throws(() => decodeWriteRequest(compressSync(raw), { maxDecompressedBytes: 4096, maxSamples: 10 }), code('PayloadTooLarge'));
});
