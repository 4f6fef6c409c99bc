// What conditions see of an event: `event.*` names, bindings by OID, and the scalar facts
// alone when the payload cannot be flattened whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventValues, flatValues, flattenedValues } from './event-values.js';
import { trapPayload } from './trap-payload.js';

describe('eventValues', () => {
  it('names a trap\'s facts under event., its bindings by OID, and nested message values by path', () => {
    const trap = eventValues({
      type: 'snmp-trap', agentId: 'a', timestamp: 5,
      payload: { trapOid: '1.3.6.1.6.3.1.1.5.3', senderAddress: '10.0.0.1', bindings: [{ oid: '1.3.6.1.2.1.2.2.1.1.2', type: 'Integer', value: 2 }, { oid: '1.3.6.1.2.1.2.2.1.2.2', type: 'OctetString', value: 'eth2' }] },
    });
    assert.deepEqual({ ...trap }, {
      'event.trapOid': '1.3.6.1.6.3.1.1.5.3', 'event.senderAddress': '10.0.0.1',
      'event.bindings.1.3.6.1.2.1.2.2.1.1.2': 2, 'event.bindings.1.3.6.1.2.1.2.2.1.2.2': 'eth2',
      'event.type': 'snmp-trap', 'event.agentId': 'a', 'event.timestamp': 5,
    });
    const mqtt = eventValues({ type: 'mqtt-message', agentId: 'b', timestamp: 6, payload: { topic: 't', message: { a: { b: [1, true] } } } });
    assert.equal(mqtt['event.message.a.b.0'], 1);
    assert.equal(mqtt['event.message.a.b.1'], true);
    assert.equal(mqtt['event.topic'], 't');
  });

  it('keeps the scalar facts when a name is too long to flatten', () => {
    const values = eventValues({ type: 'mqtt-message', agentId: 'b', timestamp: 6, payload: { topic: 't', message: { ['k'.repeat(300)]: 1 } } });
    assert.deepEqual({ ...values }, { 'event.topic': 't', 'event.type': 'mqtt-message', 'event.agentId': 'b', 'event.timestamp': 6 });
  });

  it('refuses a name over the limit the way an unprefixed one was (200 characters without "event.")', () => {
    const ok = eventValues({ type: 'x', agentId: 'b', timestamp: 1, payload: { ['k'.repeat(200)]: 1 } });
    assert.equal(ok[`event.${'k'.repeat(200)}`], 1);
    const long = eventValues({ type: 'x', agentId: 'b', timestamp: 1, payload: { m: { ['k'.repeat(199)]: 1 } } });
    assert.equal(long[`event.m.${'k'.repeat(199)}`], undefined);
  });

  it('answers a trap directly with the same names, values and key order as flattening it; odd shapes are flattened', () => {
    let seed = 99;
    const rand = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
      return seed % n;
    };
    const oids = ['1.3.6.1.2.1.2.2.1.1.2', '1.3.6.1.2.1.2.2.1.2.2', '1.3.6.1.4.1.9.9.1', '1.3', '2.999.7'];
    const odd: unknown[] = ['5', '', '1..2', 'a.b', '1.2,3', 'x'.repeat(300), '__proto__'];
    const values: unknown[] = [2, -7, 0, 'eth0', '', 'a "quoted" = text', null, true, 1.5, Number.NaN, Number.POSITIVE_INFINITY, { nested: 1 }, [1, 2]];
    let direct = 0;
    for (let i = 0; i < 3_000; i++) {
      const bindings = Array.from({ length: rand(8) }, () => ({
        oid: rand(10) === 0 ? odd[rand(odd.length)] : oids[rand(oids.length)],
        type: 'Integer',
        value: rand(6) === 0 ? values[rand(values.length)] : values[rand(6)],
      }));
      const payload: Record<string, unknown> = rand(2)
        ? { ...trapPayload({ pdu: { type: 167, varbinds: [] }, rinfo: { address: '10.0.0.1', port: 1 } }), bindings }
        : { trapOid: '1.3.6.1.6.3.1.1.5.3', bindings };
      if (rand(12) === 0) payload[String(['a.b', '0', 'type', 'k,l', 'nested', 'constructor'][rand(6)])] = rand(2) ? 1 : { deep: true };
      if (rand(20) === 0) payload.bindings = 'not a list';
      const event = { type: 'snmp-trap', agentId: 'snmp-trap@x:162', timestamp: 1_700_000_000_000 + i, payload };
      const fast = eventValues(event);
      const slow = flattenedValues(event);
      assert.equal(JSON.stringify(fast), JSON.stringify(slow), JSON.stringify(payload));
      assert.deepEqual({ ...fast }, { ...slow });
      if (flatValues(event) !== undefined && Object.keys(slow).some((k) => k.startsWith('event.bindings.'))) direct++;
    }
    assert.ok(direct > 1_000, `only ${direct} events with bindings were answered directly`);
    // A real trap's payload is answered directly (its shape is what the path is for).
    const real = trapPayload({ pdu: { type: 167, varbinds: [
      { oid: '1.3.6.1.2.1.1.3.0', type: 67, value: 100 }, { oid: '1.3.6.1.6.3.1.1.4.1.0', type: 6, value: '1.3.6.1.6.3.1.1.5.3' },
      { oid: '1.3.6.1.2.1.2.2.1.1.2', type: 2, value: 2 }, { oid: '1.3.6.1.2.1.2.2.1.2.2', type: 4, value: Buffer.from('eth2') },
    ] }, rinfo: { address: '10.0.0.1', port: 1 } });
    assert.ok(flatValues({ type: 'snmp-trap', agentId: 'a', timestamp: 1, payload: real as unknown as Record<string, unknown> }), 'a trap is answered directly');
  });
});
