import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeMessage } from './message-body.js';

const b = (s: string) => Buffer.from(s, 'utf8');

describe('decodeMessage', () => {
  it('JSON values are parsed, whatever their type', () => {
    assert.deepEqual(decodeMessage(b('{"cpu":{"load1":1.5},"ok":true}'), 64), { kind: 'json', message: { cpu: { load1: 1.5 }, ok: true } });
    assert.deepEqual(decodeMessage(b(' [1,2]\n'), 64), { kind: 'json', message: [1, 2] });
    assert.deepEqual(decodeMessage(b('42'), 64), { kind: 'json', message: 42 });
    assert.deepEqual(decodeMessage(b('"x"'), 64), { kind: 'json', message: 'x' });
    assert.deepEqual(decodeMessage(b('null'), 64), { kind: 'json', message: null });
  });

  it('text that is not JSON stays text; if it looked like JSON, the reason is kept', () => {
    assert.deepEqual(decodeMessage(b('door opened'), 64), { kind: 'text', message: 'door opened' });
    assert.deepEqual(decodeMessage(b(''), 64), { kind: 'text', message: '' });
    const broken = decodeMessage(b('{"a":'), 64);
    assert.equal(broken.kind, 'text');
    assert.equal(broken.message, '{"a":');
    assert.match((broken as { reason?: string }).reason ?? '', /not valid JSON/);
    assert.equal(decodeMessage(b('true story'), 64).kind, 'text');
  });

  it('JSON nested deeper than the bound stays text (never handed to recursive code)', () => {
    const deep = '['.repeat(100) + ']'.repeat(100);
    const out = decodeMessage(b(deep), 64);
    assert.equal(out.kind, 'text');
    assert.match((out as { reason?: string }).reason ?? '', /nesting/);
    assert.equal(decodeMessage(b(deep), 200).kind, 'json');
  });

  it('prototype keys are removed, not applied', () => {
    const out = decodeMessage(b('{"__proto__":{"admin":true},"a":1}'), 64);
    assert.equal(out.kind, 'json');
    assert.deepEqual(out.message, { a: 1 });
    assert.equal(({} as { admin?: boolean }).admin, undefined);
  });

  it('bytes that are not UTF-8 are kept as base64, flagged', () => {
    const bytes = Buffer.from([0xff, 0x00, 0xc3, 0x28, 0x41]);
    const out = decodeMessage(bytes, 64);
    assert.deepEqual(out, { kind: 'binary', message: bytes.toString('base64'), encoding: 'base64' });
    // A view into a larger buffer encodes only its own bytes.
    const big = Buffer.concat([Buffer.from('zz'), bytes, Buffer.from('zz')]);
    assert.equal(decodeMessage(big.subarray(2, 7), 64).message, bytes.toString('base64'));
  });
});
