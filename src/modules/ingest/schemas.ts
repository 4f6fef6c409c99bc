// The answers of the standard intakes, for the OpenAPI document and the UI's generated types.
import { Type } from 'typebox';

const Count = Type.Integer({ minimum: 0 });

export const RemoteWriteAnswer = Type.Object({
  samples: Type.Integer({ minimum: 0, description: 'Samples in the request' }),
  stored: Type.Integer({ minimum: 0, description: 'Samples stored (journaled and evaluated before this answer)' }),
  skipped: Type.Object({
    noEntityLabel: Count,
    invalidName: Count,
    nonFinite: Count,
    stale: Count,
    unknownEntity: Count,
    denied: Count,
    badTimestamp: Count,
  }, { description: 'Samples left out, by reason: no entity label; a name /stat would refuse; NaN or ±Inf; Prometheus staleness markers; '
    + 'no visible entity has that id or discovery_id; no push right or outside objectPermissions; timestamp past engine.maxFutureMs ahead' }),
});

export const PutQuery = Type.Object({
  details: Type.Optional(Type.String({ maxLength: 10, description: 'Present (?details): answer 200 {success, failed, errors} as OpenTSDB does' })),
  summary: Type.Optional(Type.String({ maxLength: 10, description: 'Present (?summary): answer 200 {success, failed}' })),
}, { description: 'Other OpenTSDB parameters (sync, sync_timeout) are ignored: the answer always waits until the points are stored.' });

export const PutBody = Type.Unknown({
  description: 'One OpenTSDB data point {"metric":"sys.cpu.user","timestamp":1700000000,"value":42.5,"tags":{"entity":"12","cpu":"0"}} or an array of them. '
    + 'timestamp: seconds, or milliseconds when above 10^10; value: a number or a numeric string; tags: strings, one of them (ingest.entityTag) naming the entity.',
});

export const PutAnswer = Type.Object({
  success: Type.Integer({ minimum: 0 }),
  failed: Type.Integer({ minimum: 0 }),
  errors: Type.Optional(Type.Array(Type.Object({ datapoint: Type.Unknown(), error: Type.String() }))),
});
