// XLSX chart reports (monitoring-api.md "Reports", issue 6 items 3, 4 and 6): the file is read
// back with Debian's python3-openpyxl (charts, their references, the data) and opened by
// LibreOffice headless; bad items answer 400/404 naming the item.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { dataClient } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { adminAuth, assertError, call, createUser, type TestServer, useTestServer } from './helpers/server.js';

const run = promisify(execFile);
const PATH = '/reports/prop-inventory/excel';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const MIN = 60_000;

let server: TestServer;
useTestServer((s) => {
  server = s;
});
const { mkObject } = adminClient(() => server);
const data = dataClient(() => server);

let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'vigil-report-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

/** POST the items; the raw answer (bytes kept as bytes). */
async function report(items: unknown, headers: Record<string, string> = adminAuth): Promise<{ status: number; headers: Headers; bytes: Buffer; json?: any }> {
  const res = await fetch(server.api + PATH, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(items) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(bytes.toString('utf8')) : undefined;
  return { status: res.status, headers: res.headers, bytes, json };
}

/** What openpyxl reads: sheet names, the charts of the first sheet, the cells of "Data" (times as ms). */
const READ_BACK = `
import json, sys, datetime, openpyxl
wb = openpyxl.load_workbook(sys.argv[1])
charts = []
for ch in wb.worksheets[0]._charts:
    title = ''.join(r.t for p in ch.title.tx.rich.p for r in (p.r or []))
    series = [{'name': s.tx.strRef.f, 'values': s.val.numRef.f, 'categories': s.cat.numRef.f} for s in ch.series]
    charts.append({'type': type(ch).__name__, 'title': title, 'series': series})
def cell(v):
    if isinstance(v, datetime.datetime):
        return {'date': round((v - datetime.datetime(1970, 1, 1)).total_seconds() * 1000)}
    return v
rows = [[cell(v) for v in row] for row in wb['Data'].iter_rows(values_only=True)]
formats = [wb['Data'].cell(row=2, column=1).number_format]
print(json.dumps({'sheets': wb.sheetnames, 'charts': charts, 'rows': rows, 'timeFormat': formats[0]}))
`;

async function readBack(file: string): Promise<any> {
  const { stdout } = await run('/usr/bin/python3', ['-c', READ_BACK, file], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout);
}

/** Averages (or maxima) per bucket of [ts, value] points, as the history downsample computes them. */
function buckets(points: Array<[number, number]>, interval: number, agg: 'avg' | 'max'): Map<number, number> {
  const by = new Map<number, number[]>();
  for (const [t, v] of points) {
    const start = t - (t % interval);
    if (!by.has(start)) by.set(start, []);
    by.get(start)!.push(v);
  }
  return new Map([...by].map(([t, vs]) => [t, agg === 'avg' ? vs.reduce((a, b) => a + b, 0) / vs.length : Math.max(...vs)]));
}

describe('POST /reports/prop-inventory/excel', () => {
  // 30 minutes of rx and tx every 10 s on "router", and load every minute on "switch <2>".
  const t0 = Math.floor((Date.now() - 3 * 3_600_000) / (5 * MIN)) * 5 * MIN;
  const from = t0;
  const to = t0 + 30 * MIN - 1;
  const rx: Array<[number, number]> = [];
  const tx: Array<[number, number]> = [];
  const load: Array<[number, number]> = [];
  let router: any;
  let sw: any;

  before(async () => {
    router = await mkObject({ name: 'router', parent_id: ['1'] });
    sw = await mkObject({ name: 'switch <2> & "co"', parent_id: ['1'] });
    const items: unknown[] = [];
    for (let i = 0; i < 180; i++) {
      const t = t0 + i * 10_000;
      rx.push([t, i * 3]);
      tx.push([t, 1000 - i]);
      items.push({ entityId: router.id, timestamp: t, data: { rx: i * 3, tx: 1000 - i } });
    }
    for (let i = 0; i < 30; i++) {
      load.push([t0 + i * MIN + 5_000, i % 7]);
      items.push({ entityId: sw.id, timestamp: t0 + i * MIN + 5_000, data: { load: i % 7 } });
    }
    const res = await data.batch(items);
    assert.equal(res.status, 204, res.text);
  });

  it('answers an XLSX attachment whose charts reference the data sheet, and whose data is what was pushed', async () => {
    const items = [
      { type: 'line-chart', entityId: router.id, entityType: 1, metric: '{{rx}}', from, to, downsample: '1m-avg' },
      { type: 'line-chart', entityId: router.id, entityType: 1, metric: '{{rx}}', formula: '({{rx}} + {{tx}}) * 8', from, to, downsample: '1m-max' },
      { type: 'line-chart', entityId: Number(sw.id), entityType: 1, metric: '{{load}}', from, to, downsample: '5m-max' },
    ];
    const res = await report(items);
    assert.equal(res.status, 200, res.bytes.toString('utf8').slice(0, 300));
    assert.equal(res.headers.get('content-type'), XLSX);
    assert.match(res.headers.get('content-disposition') ?? '', /^attachment; filename="vigil-report-\d{8}-\d{4}\.xlsx"$/);
    assert.equal(res.bytes.subarray(0, 4).toString('hex'), '504b0304', 'a zip file, bytes intact');
    const file = join(work, 'report.xlsx');
    writeFileSync(file, res.bytes);

    const book = await readBack(file);
    assert.deepEqual(book.sheets, ['Charts', 'Data']);
    const titles = ['router — rx', 'router — ({{rx}} + {{tx}}) * 8', 'switch <2> & "co" — load'];
    assert.deepEqual(book.charts.map((c: any) => c.type), ['LineChart', 'LineChart', 'LineChart']);
    assert.deepEqual(book.charts.map((c: any) => c.title), titles);
    assert.deepEqual(book.rows[0], ['Time (UTC)', ...titles], 'the header row holds the chart titles');
    assert.match(book.timeFormat, /yyyy-mm-dd hh:mm:ss/);

    // Expected: minute buckets for the first two, 5-minute buckets for the third, on one time column.
    const avgRx = buckets(rx, MIN, 'avg');
    // A formula combines the downsampled values of its metrics, bucket by bucket.
    const maxRx = buckets(rx, MIN, 'max');
    const maxTx = buckets(tx, MIN, 'max');
    const maxSum = new Map([...maxRx].map(([t, v]) => [t, (v + maxTx.get(t)!) * 8]));
    const maxLoad = buckets(load, 5 * MIN, 'max');
    const times = [...new Set([...avgRx.keys(), ...maxSum.keys(), ...maxLoad.keys()])].sort((a, b) => a - b);
    assert.equal(times.length, 30);
    const body = book.rows.slice(1);
    assert.deepEqual(body.map((r: any[]) => r[0]), times.map((t) => ({ date: t })), 'column A holds the times as real dates');
    for (const [k, expected] of [avgRx, maxSum, maxLoad].entries()) {
      const column = body.map((r: any[]) => r[k + 1] ?? null);
      assert.deepEqual(column, times.map((t) => expected.get(t) ?? null), `column of item ${k}`);
    }

    // Each chart's one series: name from the header, values from its column, times from A, all on 'Data'.
    const rowOf = (t: number) => times.indexOf(t) + 2;
    const spans = [avgRx, maxSum, maxLoad].map((m) => [rowOf(Math.min(...m.keys())), rowOf(Math.max(...m.keys()))]);
    book.charts.forEach((c: any, k: number) => {
      const col = 'BCD'[k];
      const [a, b] = spans[k]!;
      assert.deepEqual(c.series, [{ name: `'Data'!$${col}$1`, values: `'Data'!$${col}$${a}:$${col}$${b}`, categories: `'Data'!$A$${a}:$A$${b}` }]);
    });
    assert.deepEqual(spans[2], [2, 27], 'the 5-minute series spans its own rows (blanks between)');

    // LibreOffice opens it (converting to PDF renders the charts).
    const profile = `file:///tmp/lo-${randomBytes(6).toString('hex')}`;
    try {
      await run('soffice', [`-env:UserInstallation=${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', work, file], { timeout: 120_000 });
    } finally {
      rmSync(profile.slice('file://'.length), { recursive: true, force: true });
    }
    const pdf = statSync(join(work, 'report.pdf'));
    assert.ok(pdf.size > 1000, `a non-empty PDF (${pdf.size} bytes)`);
  });

  it('a formula point exists only where every metric it names has one; a division by zero is left out', async () => {
    const res = await report([{ type: 'line-chart', entityId: router.id, metric: '{{rx}}', formula: '{{tx}} / {{rx}}', from, to: from + MIN - 1, downsample: '10s-last' }]);
    assert.equal(res.status, 200);
    const file = join(work, 'ratio.xlsx');
    writeFileSync(file, res.bytes);
    const book = await readBack(file);
    // rx is 0 at t0: that point is left out; the other five 10-s points remain.
    assert.deepEqual(book.rows.slice(1), rx.slice(1, 6).map(([t, v], i) => [{ date: t }, tx[i + 1]![1] / v]));
  });

  describe('refusals name the item', () => {
    const good = () => ({ type: 'line-chart', entityId: router.id, entityType: 1, metric: '{{rx}}', from, to, downsample: '1m-avg' });
    const refused = async (items: unknown, status: number, code: string, message: RegExp, headers = adminAuth) => {
      const res = await report(items, headers);
      assertError({ status: res.status, headers: res.headers, body: res.json, text: res.bytes.toString('utf8') }, status, code, message);
    };

    it('an empty array, or more than 50 items', async () => {
      await refused([], 400, 'BadRequest', /body/);
      await refused(Array.from({ length: 51 }, good), 400, 'BadRequest', /body/);
      await refused({ not: 'an array' }, 400, 'InvalidContent', /body/);
    });

    it('an unknown chart type, from >= to, an unknown downsample', async () => {
      await refused([good(), { ...good(), type: 'bar-chart' }], 400, 'BadRequest', /^\[1\]\.type: unknown chart type "bar-chart"/);
      await refused([good(), good(), { ...good(), from: to, to: from }], 400, 'BadRequest', /^\[2\]\.from: must be before to/);
      await refused([{ ...good(), to: from }], 400, 'BadRequest', /^\[0\]\.from/);
      await refused([{ ...good(), downsample: '1x-avg' }], 400, 'BadRequest', /^\[0\]\.downsample: /);
      // median became an aggregator with issue 16 (point 5, OpenTSDB's set); p42 is none.
      await refused([{ ...good(), downsample: '1m-p42' }], 400, 'BadRequest', /^\[0\]\.downsample: unknown aggregator "p42"/);
    });

    it('an unknown metric in the metric or the formula, a formula that does not parse', async () => {
      await refused([good(), { ...good(), formula: '{{rx}}+{{nope}}' }], 400, 'BadRequest', /^\[1\]\.formula: unknown metric "nope"/);
      await refused([{ ...good(), metric: '{{nope}}' }], 400, 'BadRequest', /^\[0\]\.metric: unknown metric "nope"/);
      await refused([{ ...good(), metric: 'rx' }], 400, 'BadRequest', /^\[0\]\.metric: expected a metric name in double braces/);
      await refused([{ ...good(), formula: '{{rx}} +* 2' }], 400, 'BadRequest', /^\[0\]\.formula: expected a number/);
      await refused([{ ...good(), formula: 'require("fs")' }], 400, 'BadRequest', /^\[0\]\.formula: /);
      await refused([{ ...good(), formula: '{{rx}}+' + '1+'.repeat(300) + '1' }], 400, 'BadRequest', /formula/);
    });

    it('too many points for one item', async () => {
      await refused([good(), { ...good(), from: 0, to: 1e12, downsample: '1s-avg' }], 400, 'BadRequest', /^\[1\]\.downsample: "1s-avg" makes more than 100000 points/);
    });

    it('an unknown or hidden entity is 404, a wrong entityType 400', async () => {
      await refused([good(), { ...good(), entityId: '999999' }], 404, 'ResourceNotFound', /^\[1\]\.entityId: entity 999999 not found$/);
      await refused([{ ...good(), entityType: 2 }], 400, 'BadRequest', /^\[0\]\.entityType: entity \d+ is an object \(1\), not 2/);
      const own = await mkObject({ name: 'own', parent_id: ['1'] });
      await data.pushOk(own.id, { rx: 1 });
      await createUser(server, { login: 'narrow', password: 'narrow-pw-1', permissions: [], objectPermissions: { include: [own.id] } });
      const narrow = as('narrow', 'narrow-pw-1');
      await refused([{ ...good(), entityId: own.id, from: 0, to: Date.now() + 1000, downsample: 'all-avg' }, good()], 404, 'ResourceNotFound', /^\[1\]\.entityId: entity \d+ not found$/, narrow);
      const mine = await report([{ ...good(), entityId: own.id, from: 0, to: Date.now() + 1000, downsample: 'all-avg' }], narrow);
      assert.equal(mine.status, 200, 'any signed-in user may report on what they see');
    });

    it('needs a signed-in user', async () => {
      const res = await call(server, 'POST', PATH, { body: [good()] });
      assertError(res, 401, 'Unauthorized');
    });
  });
});
