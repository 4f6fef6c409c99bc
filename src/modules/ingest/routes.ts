// The standard intakes beside /stat: Prometheus remote-write and OpenTSDB's put. Same rights
// as POST /stat (right push-data, or the modify right of each entity's kind), same path into
// the intake (ingest-service.ts), answered once stored.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { AppError } from '../../errors.js';
import { principalOf } from '../auth/authenticate.js';
import type { Access } from '../catalog/access.js';
import { ANY_PUSH_RIGHTS } from '../history/push-rights.js';
import type { IngestService } from './ingest-service.js';
import { PutAnswer, PutBody, PutQuery, RemoteWriteAnswer } from './schemas.js';

const RIGHTS_TEXT = 'Right push-data, or the modify right of the entity\'s kind (objects: modify-objects or manage-objects; links: modify-links or manage-links).';

/** The message remote-write 1.0 names in its Content-Type's proto parameter. */
const REMOTE_WRITE_V1 = 'prometheus.WriteRequest';

/** The value of a Content-Type's `proto` parameter (quotes removed), undefined without one. */
function protoParameter(contentType: string): string | undefined {
  for (const part of contentType.split(';').slice(1)) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim().toLowerCase() !== 'proto') continue;
    return part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

export function ingestRoutes(api: Api, deps: { ingest: IngestService; access: Access; maxBodyBytes: number; entityLabel: string; entityTag: string }): void {
  const { ingest, access } = deps;

  // Its own scope, so the raw body parser serves this route only: every body arrives as bytes
  // (up to maxBodyBytes) and the handler names what it wants instead of a JSON parser's 415.
  void api.register(async (scope: Api) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: deps.maxBodyBytes }, (_req, body, done) => done(null, body));

    scope.post('/ingest/prometheus/write', {
      bodyLimit: deps.maxBodyBytes,
      schema: {
        tags: ['data'],
        summary: 'Prometheus remote-write 1.0 (snappy protobuf); 200 once stored, with counts of what was skipped',
        description: `${RIGHTS_TEXT} Content-Type application/x-protobuf, Content-Encoding snappy. Each series goes to the entity its label `
          + `"${deps.entityLabel}" (ingest.entityLabel) names by id, else by an object's discovery_id. The metric is __name__ followed by the other `
          + 'labels sorted by name as .name.value (job, instance and the entity label left out; dots and commas in values become _). '
          + 'Series or samples that cannot be taken are skipped and counted, never a 4xx: Prometheus drops a batch answered 4xx.',
        response: { 200: RemoteWriteAnswer },
      },
      config: { right: ANY_PUSH_RIGHTS },
    }, async (req, reply) => {
      const type = req.headers['content-type'] ?? '';
      if (!/^application\/x-protobuf\s*(;|$)/i.test(type)) throw new AppError('InvalidContent', 'Content-Type: expected application/x-protobuf (a snappy-compressed prometheus.WriteRequest)');
      const proto = protoParameter(type);
      if (proto !== undefined && proto !== REMOTE_WRITE_V1) {
        // Remote-write 2.0 (proto=io.prometheus.write.v2.Request) or another message: 415 is the
        // answer on which Prometheus falls back to 1.0, instead of bytes decoded as the wrong one.
        // The plain reply type: like every error answer, the 415 is not among the route's schemas.
        return (reply as FastifyReply).code(415).type('application/json; charset=utf-8').send({
          code: 'InvalidContent',
          message: `Content-Type: proto=${proto.slice(0, 100)} is not supported; send remote-write 1.0 (no proto parameter, or proto=${REMOTE_WRITE_V1})`,
        });
      }
      const encoding = req.headers['content-encoding'];
      if (encoding === undefined || encoding.toLowerCase() !== 'snappy') throw new AppError('InvalidContent', 'Content-Encoding: expected snappy');
      return ingest.remoteWrite(access.actorOf(principalOf(req)), req.body as Buffer);
    });
  });

  api.post('/ingest/opentsdb/put', {
    schema: {
      tags: ['data'],
      summary: 'OpenTSDB /api/put data points; 204 once stored',
      description: `${RIGHTS_TEXT} The entity is the tag "${deps.entityTag}" (ingest.entityTag): an entity id, else an object's discovery_id. The metric is `
        + 'the given name followed by the other tags sorted by name as .name.value. Each point stands alone, as in OpenTSDB: the good ones are stored; '
        + 'when some are refused the answer is 400 naming them, or with ?details 200 {success, failed, errors:[{datapoint, error}]} (?summary: no errors). '
        + '400 when none could be stored.',
      querystring: PutQuery,
      body: PutBody,
      response: { 200: PutAnswer, 204: Type.Null() },
    },
    config: { right: ANY_PUSH_RIGHTS },
  }, async (req, reply) => {
    const result = await ingest.put(access.actorOf(principalOf(req)), req.body);
    if (req.query.details !== undefined) return reply.code(200).send(result);
    if (req.query.summary !== undefined) return reply.code(200).send({ success: result.success, failed: result.failed });
    if (result.failed > 0) {
      const first = result.errors.slice(0, 3).map((e) => e.error).join('; ');
      throw new AppError('BadRequest', `${result.failed} of ${result.success + result.failed} data points were not stored (the others were): ${first}`);
    }
    return reply.code(204).send(null);
  });
}
