import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compressSync } from 'snappy';
import { AppError } from '../../errors.js';
import { decodeWriteRequest, snappyDeclaredLength, writeRequestPoints } from './prometheus-write.js';

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
