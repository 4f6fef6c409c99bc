import assert from 'node:assert/strict';
import { createSocket, type RemoteInfo } from 'node:dgram';
import { describe, it } from 'node:test';
import { datagramProblem, guardedDgram } from './guarded-dgram.js';

describe('datagramProblem', () => {
  it('passes a whole BER SEQUENCE, short or long form, padded length bytes too', () => {
    assert.equal(datagramProblem(Buffer.from([0x30, 0x03, 0x02, 0x01, 0x01])), undefined);
    assert.equal(datagramProblem(Buffer.concat([Buffer.from([0x30, 0x81, 0x80]), Buffer.alloc(0x80)])), undefined);
    assert.equal(datagramProblem(Buffer.concat([Buffer.from([0x30, 0x84, 0, 0, 0, 0x05]), Buffer.alloc(5)])), undefined);
    assert.equal(datagramProblem(Buffer.concat([Buffer.from([0x30, 0x02]), Buffer.alloc(4)])), undefined, 'trailing bytes are left to the decoder');
  });

  it('garbage: empty, not a SEQUENCE, indefinite length, absurd length field', () => {
    assert.equal(datagramProblem(Buffer.alloc(0)), 'garbage');
    assert.equal(datagramProblem(Buffer.from('GET / HTTP/1.1')), 'garbage');
    assert.equal(datagramProblem(Buffer.from([0x30, 0x80, 0x00, 0x00])), 'garbage');
    assert.equal(datagramProblem(Buffer.from([0x30, 0x89, 1, 1, 1, 1, 1, 1, 1, 1, 1])), 'garbage');
  });

  it('truncated: the length says more than arrived', () => {
    assert.equal(datagramProblem(Buffer.from([0x30])), 'truncated');
    assert.equal(datagramProblem(Buffer.from([0x30, 0x05, 0x02, 0x01])), 'truncated');
    assert.equal(datagramProblem(Buffer.from([0x30, 0x82, 0x01])), 'truncated');
    assert.equal(datagramProblem(Buffer.from([0x30, 0x82, 0x01, 0x00, 0x02])), 'truncated');
  });
});

describe('guardedDgram', () => {
  it("catches a throwing 'message' listener and turns garbage away before it; the socket goes on", async () => {
    const seen: string[] = [];
    const { module, sockets } = guardedDgram({
      received: () => void seen.push('received'),
      refused: (problem) => void seen.push(`refused ${problem}`),
      crashed: (err) => void seen.push(`crashed ${(err as Error).message}`),
    });
    const socket = module.createSocket('udp4');
    assert.deepEqual(sockets, [socket]);
    const handled: number[] = [];
    socket.on('message', (buf: Buffer, _rinfo: RemoteInfo) => {
      if (buf[2] === 0xee) throw new Error('decoder bug');
      handled.push(buf.length);
    });
    await new Promise<void>((r) => socket.bind(0, '127.0.0.1', r));
    const client = createSocket('udp4');
    const send = (b: Buffer) => new Promise<void>((r) => client.send(b, socket.address().port, '127.0.0.1', () => r()));
    await send(Buffer.from('junk'));
    await send(Buffer.from([0x30, 0x01, 0xee]));
    await send(Buffer.from([0x30, 0x01, 0x01]));
    const end = Date.now() + 2000;
    while (handled.length === 0 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    client.close();
    socket.close();
    assert.deepEqual(handled, [3]);
    assert.deepEqual(seen, ['received', 'refused garbage', 'received', 'crashed decoder bug', 'received']);
  });
});
