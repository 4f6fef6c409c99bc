import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { WriteGate } from './write-gate.js';

describe('WriteGate', () => {
  it('runs a write at once when nothing holds the gate', async () => {
    const gate = new WriteGate();
    let ran = false;
    const done = gate.run(() => (ran = true));
    assert.equal(ran, true, 'synchronously, before any await');
    assert.equal(await done, true);
  });

  it('holds other writes until the exclusive work has settled, then runs them in order', async () => {
    const gate = new WriteGate();
    const order: string[] = [];
    const long = gate.exclusive(async () => {
      order.push('long:start');
      await tick();
      await tick();
      order.push('long:end');
    });
    const a = gate.run(() => order.push('a'));
    const b = gate.run(() => order.push('b'));
    await Promise.all([long, a, b]);
    assert.deepEqual(order, ['long:start', 'long:end', 'a', 'b']);
  });

  it('releases the gate when the exclusive work fails', async () => {
    const gate = new WriteGate();
    await assert.rejects(gate.exclusive(async () => {
      await tick();
      throw new Error('boom');
    }), /boom/);
    assert.equal(await gate.run(() => 'after'), 'after');
  });
});
