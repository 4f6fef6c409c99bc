import { Type } from 'typebox';
import { SORT_FIELDS } from './service.js';

const MAX_TIME = 8.64e15;

export const EventRecordSchema = Type.Object({
  _id: Type.String(),
  type: Type.String({ description: '`snmp-trap` or `mqtt-message`' }),
  agentId: Type.String({ description: 'the receiver that took it, e.g. snmp-trap@host:162, mqtt-broker@host:1883' }),
  timestamp: Type.Integer({ description: 'when it was received, ms' }),
  payload: Type.Object({}, {
    additionalProperties: true,
    description: 'Traps: senderAddress, trapOid (v1 traps mapped as RFC 3584 does), bindings [{oid, type, value}], text, version, pduType. '
      + 'MQTT: topic, message (the JSON if it parses, else text; base64 with encoding "base64" when not UTF-8), qos, retain, clientId.',
  }),
  entity: Type.Optional(Type.Object({
    entityId: Type.String(),
    entityType: Type.Integer({ description: '1 object, 2 link' }),
    entityName: Type.String(),
  }, { description: 'traps: the object whose property ip (or host) is the sender address; MQTT: the entity the topic names (objects/<id>/..., links/<id>/...)' })),
});

export const EventLogQuerySchema = Type.Object({
  filter: Type.Optional(Type.String({ maxLength: 65536, description: 'url-encoded JSON, MongoDB-style over the record fields (e.g. {"payload.trapOid": "1.3.6.1.6.3.1.1.5.3"})' })),
  from: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'milliseconds; records at or after' })),
  to: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'milliseconds; records at or before' })),
  inverse: Type.Optional(Type.Boolean({ description: 'true reverses the order of the records in the response' })),
  // Records can be large (an MQTT message up to mqtt.maxPayloadBytes): a page is bounded.
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 100, description: 'at most 1000; page on with skip' })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { description: 'default asc' })),
  sortField: Type.Optional(Type.Union(Object.keys(SORT_FIELDS).map((k) => Type.Literal(k)), { description: 'default timestamp; ties are broken by _id' })),
  type: Type.Optional(Type.Union([Type.Literal('1'), Type.Literal('2'), Type.Literal('snmp-trap'), Type.Literal('mqtt-message')], {
    description: '1 (or snmp-trap) for SNMP traps, 2 (or mqtt-message) for MQTT messages',
  })),
});
