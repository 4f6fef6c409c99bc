import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scanPage } from './scan-page.js';

const numbers = Array.from({ length: 100 }, (_, i) => i);
const fetchFrom = (list: number[], reads: number[]) => async (after: number | undefined, limit: number) => {
  const start = after === undefined ? 0 : list.indexOf(after) + 1;
  const batch = list.slice(start, start + limit);
  reads.push(batch.length);
  return batch;
};

describe('scanPage', () => {
  it('skips and limits over what is kept, across batches', async () => {
    const reads: number[] = [];
    const page = await scanPage({ fetch: fetchFrom(numbers, reads), keep: (n) => (n % 3 === 0 ? `#${n}` : undefined), skip: 4, limit: 5, batchSize: 10, maxScan: 1000 });
    assert.deepEqual(page, ['#12', '#15', '#18', '#21', '#24']);
    // The first read is what the page needs if all matched (skip + limit), then doubling up to the batch size.
    assert.deepEqual(reads, [9, 10, 10]);
  });

  it('reads exactly the page when every record matches, and doubles its reads while few do', async () => {
    const exact: number[] = [];
    assert.deepEqual(await scanPage({ fetch: fetchFrom(numbers, exact), keep: (n) => n, skip: 0, limit: 5, batchSize: 500, maxScan: 1000 }), [0, 1, 2, 3, 4]);
    assert.deepEqual(exact, [5]);
    const sparse: number[] = [];
    assert.deepEqual(await scanPage({ fetch: fetchFrom(numbers, sparse), keep: (n) => (n === 60 ? n : undefined), skip: 0, limit: 2, batchSize: 16, maxScan: 1000 }), [60]);
    assert.deepEqual(sparse, [2, 4, 8, 16, 16, 16, 16, 16, 6]);
  });

  it('stops at the end of the list and after maxScan records', async () => {
    assert.deepEqual(await scanPage({ fetch: fetchFrom(numbers, []), keep: (n) => (n > 97 ? n : undefined), skip: 0, limit: 10, batchSize: 7, maxScan: 1000 }), [98, 99]);
    const reads: number[] = [];
    assert.deepEqual(await scanPage({ fetch: fetchFrom(numbers, reads), keep: (n) => (n > 97 ? n : undefined), skip: 0, limit: 10, batchSize: 10, maxScan: 30 }), []);
    assert.equal(reads.reduce((a, b) => a + b, 0), 30);
  });

  it('answers nothing for limit 0 without reading', async () => {
    const reads: number[] = [];
    assert.deepEqual(await scanPage({ fetch: fetchFrom(numbers, reads), keep: (n) => n, skip: 0, limit: 0, batchSize: 10, maxScan: 100 }), []);
    assert.deepEqual(reads, []);
  });
});

describe('scanPage time slicing', () => {
  it('yields to other work within a batch when records are slow to test, and stops at its deadline', async () => {
    const slow = (n: number) => {
      const until = performance.now() + 4;
      while (performance.now() < until);
      return n;
    };
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const page = await scanPage({ fetch: fetchFrom(numbers, []), keep: slow, skip: 0, limit: 20, batchSize: 100, maxScan: 1000 });
    clearInterval(timer);
    assert.equal(page.length, 20);
    // 20 records of 4 ms in one batch: other work ran between slices of SLICE_MS.
    assert.ok(ticks >= 3, `other work ran ${ticks} times`);
    await assert.rejects(
      scanPage({ fetch: fetchFrom(numbers, []), keep: slow, skip: 0, limit: 100, batchSize: 100, maxScan: 1000, deadline: performance.now() + 30 }),
      /time budget/,
    );
  });
});
