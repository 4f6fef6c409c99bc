import { Type } from 'typebox';

/** The latest time a JavaScript Date can hold (ms); larger numbers are no time at all. */
const MAX_TIME = 8.64e15;

export const SecurityLogRecordSchema = Type.Object(
  {
    id: Type.String(),
    level: Type.String(),
    severity: Type.String(),
    eventClassId: Type.String(),
    eventDescription: Type.String(),
    host: Type.String(),
    message: Type.Object({
      remoteAddress: Type.String(),
      login: Type.String(),
      message: Type.String(),
      connection: Type.Object({
        localAddress: Type.String(),
        localHost: Type.String(),
        localPort: Type.Integer(),
        remoteAddress: Type.String(),
        remoteHost: Type.String(),
        request: Type.Object({ request: Type.String(), hostname: Type.String(), userAgent: Type.String() }),
      }),
    }),
    extra: Type.Object({
      source: Type.String(),
      channel: Type.String(),
      count: Type.Optional(Type.Integer({ minimum: 1, description: 'repeats folded into this record: the first of an interval has 1, a later one the number since' })),
    }),
    timestamp: Type.String({ description: 'ISO 8601' }),
  },
);

export const SecurityLogQuerySchema = Type.Object({
  from: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'milliseconds; records at or after' })),
  to: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'milliseconds; records at or before' })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 100 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  filter: Type.Optional(Type.String({ maxLength: 65536, description: 'url-encoded JSON, MongoDB-style over the record fields' })),
  userId: Type.Optional(Type.String({ maxLength: 64, description: 'only records about this user' })),
});
