// What conditions see of an event: `event.*` names, bindings by OID, and the scalar facts
// alone when the payload cannot be flattened whole.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventValues } from './event-values.js';

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
});
