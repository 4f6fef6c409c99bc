// Document routes, the same under /objects and /links: list, add (a file or a URL), the file
// served back, delete. They live in their own plugin scope, so the multipart parser and the
// raw-bytes parser (limited to docs.maxBytes) reach these routes only; every other route keeps
// the app's JSON parser and its body limit, and so does the URL form here.
import multipart from '@fastify/multipart';
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { AppError } from '../../errors.js';
import type { Right } from '../users/rights.js';
import type { createAccess } from '../catalog/access.js';
import { contentDisposition } from './file-names.js';
import { DocListQuery, DocParams, DocSchema, FormDocBody, RawDocBody, UploadQuery, UrlDocBody } from './schemas.js';
import type { DocKind, DocsService } from './service.js';
import { FORM_OVERHEAD, multipartLimits, readForm, readRaw } from './upload.js';
import { IdParams } from '../entities/schemas.js';

const MODIFY: Record<DocKind, readonly Right[]> = {
  objects: ['modify-objects', 'manage-objects'],
  links: ['modify-links', 'manage-links'],
};

const access = 'Reading follows the entity\'s visibility (a hidden entity answers 404).';

export function docsRoutes(api: Api, deps: { docs: DocsService; access: ReturnType<typeof createAccess>; maxBytes: number }): void {
  const { docs, maxBytes } = deps;
  const actor = (req: FastifyRequest) => deps.access.actorOf(principalOf(req));

  api.register(async (scope: Api) => {
    await scope.register(multipart, { limits: multipartLimits(maxBytes) });
    // Any other type is the file itself; text/plain too (the app reads it as a string elsewhere).
    scope.removeContentTypeParser('text/plain');
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: maxBytes }, (_req, body, done) => done(null, body));

    for (const kind of ['objects', 'links'] as const) {
      const tags = [kind, 'documents'];
      const rights = MODIFY[kind].join(' or ');

      /**
       * Runs before the body is read: a refused upload (hidden or unchangeable entity, or a form
       * plainly over the limit) costs no more than its headers. The right itself is checked by
       * the authentication hook, which runs first.
       */
      const beforeUpload = async (req: FastifyRequest, reply: FastifyReply) => {
        try {
          docs.changeable(actor(req), kind, (req.params as { id: string }).id);
          const length = Number(req.headers['content-length']);
          if (req.isMultipart() && length > maxBytes + FORM_OVERHEAD) throw new AppError('PayloadTooLarge', `the file is larger than ${maxBytes} bytes (docs.maxBytes)`);
        } catch (err) {
          // The unread body must not be taken for the next request on this connection.
          reply.header('connection', 'close');
          throw err;
        }
      };

      scope.get(`/${kind}/:id/docs`, {
        schema: { tags, summary: 'The entity\'s documents, oldest first', description: access, params: IdParams, querystring: DocListQuery, response: { 200: Type.Array(DocSchema) } },
      }, async (req) => docs.list(actor(req), kind, req.params.id, { limit: req.query.limit ?? 1000, skip: req.query.skip ?? 0 }));

      scope.post(`/${kind}/:id/docs`, {
        schema: {
          tags,
          summary: 'Add a document: a file (multipart/form-data field "file", or a raw body) or a URL (JSON {url, name?})',
          description: `Right ${rights}, and the entity inside the caller's objectPermissions. A file is at most docs.maxBytes `
            + `(${maxBytes} bytes here; 413 PayloadTooLarge above) and is stored in the database. value is the path serving the file back, `
            + 'or the URL. A form field other than file and name, or a JSON field other than url and name, answers 400 naming it.',
          params: IdParams,
          querystring: UploadQuery,
          body: {
            content: {
              'application/json': { schema: UrlDocBody },
              'multipart/form-data': { schema: FormDocBody },
              'application/octet-stream': { schema: RawDocBody },
            },
          },
          response: { 201: DocSchema },
        },
        config: { right: MODIFY[kind] },
        onRequest: beforeUpload,
      }, async (req, reply) => {
        const who = actor(req);
        const { id } = req.params;
        let added;
        try {
          if (req.isMultipart()) added = await docs.addFile(who, kind, id, await readForm(req, maxBytes));
          else if (Buffer.isBuffer(req.body)) added = await docs.addFile(who, kind, id, readRaw(req, req.query.name));
          else added = await docs.addUrl(who, kind, id, req.body);
        } catch (err) {
          if (req.isMultipart()) reply.header('connection', 'close');
          throw err;
        }
        return reply.code(201).send(added);
      });

      scope.get(`/${kind}/:id/docs/:docId/file`, {
        schema: {
          tags,
          summary: 'A file document\'s bytes, as an attachment',
          description: `${access} Served with its Content-Type, Content-Disposition: attachment and nosniff (never rendered in this origin). A URL document has no file here (404).`,
          params: DocParams,
          response: { 200: { description: 'The file', content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } } },
        },
      }, async (req, reply) => {
        const file = await docs.file(actor(req), kind, req.params.id, req.params.docId);
        // The bytes as they are: the response schema describes them, nothing serializes them.
        return (reply as FastifyReply)
          .header('content-type', file.contentType)
          .header('content-disposition', contentDisposition(file.name))
          .header('content-length', file.content.length)
          .header('cache-control', 'private, no-cache')
          .send(file.content);
      });

      scope.delete(`/${kind}/:id/docs/:docId`, {
        schema: { tags, summary: 'Delete a document', description: `Right ${rights}, and the entity inside the caller's objectPermissions.`, params: DocParams, response: { 204: Type.Null() } },
        config: { right: MODIFY[kind] },
      }, async (req, reply) => {
        await docs.remove(actor(req), kind, req.params.id, req.params.docId);
        return reply.code(204).send(null);
      });
    }
  });
}
