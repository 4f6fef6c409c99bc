// Routes of /objects: the object tree, its reads and changes, and object search.
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { FastifyRequest } from 'fastify';
import type { CatalogServices } from '../catalog/catalog-services.js';
import { sortObjects } from './object-search.js';
import {
  CreateObjectBody, FieldsQuery, IdParams, LinkSchema, ListQuery, ObjectSchema, PatchObjectRequest, PathsSchema, SearchBody,
} from './schemas.js';
import { FULL_FIELDS, orFull, parseFields, objectView } from './views.js';
import { sendRecords } from '../../http/record-list.js';
import { sendPage, TOTAL_HEADER } from '../../http/paged-list.js';
import { refuseUnwritableFields, writableFields } from './body-fields.js';

const tags = ['objects'];
const page = (q: { limit?: number; skip?: number }) => ({ limit: q.limit ?? 10000, skip: q.skip ?? 0 });
const CREATE_FIELDS = writableFields(CreateObjectBody);
const PATCH_FIELDS = writableFields(PatchObjectRequest);
/** What every new object record has for certain: sent on create, it is no change. */
const NEW_OBJECT = { entityType: 1 };
/** Paged lists say how many there are in all, and link the next page while more remain. */
const PAGED = `Header ${TOTAL_HEADER}: how many the caller may see in all; header Link rel="next" while more remain after this page.`;
const FULL = 'Without fields: the full record (properties with secrets masked for readers without manage-service-properties, class_name, child_ids, last_state_update, metrics_cache). Unknown field names are ignored.';

export function objectRoutes(api: Api, s: CatalogServices): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));

  api.get('/objects', {
    schema: {
      tags,
      summary: 'Objects the caller may see, in id order (paged)',
      description: `Without fields: the list record (no properties, class_name, child_ids, last_state_update or metrics_cache). ${PAGED}`,
      querystring: ListQuery,
      response: { 200: Type.Array(ObjectSchema) },
    },
  }, async (req, reply) => sendPage(req, reply, page(req.query), s.queries.listObjects(actor(req), page(req.query), parseFields(req.query.fields))));

  api.post('/objects', {
    schema: {
      tags,
      summary: 'Create an object (a known discovery_id updates that object instead)',
      description: 'Right create-objects or manage-objects. parent_id defaults to the root "1". Answers the full record. '
        + 'A field this route does not write is refused (400 naming it). With a known discovery_id, properties are added and changed (never removed).',
      body: CreateObjectBody,
      response: { 200: ObjectSchema, 201: ObjectSchema },
    },
  }, async (req, reply) => {
    const who = actor(req);
    refuseUnwritableFields(req.body, CREATE_FIELDS, NEW_OBJECT, FULL_FIELDS);
    const { object, created } = await s.objects.create(who, req.body);
    return reply.code(created ? 201 : 200).send(objectView(s.catalog, who, object, FULL_FIELDS));
  });

  api.post('/objects/search', {
    schema: {
      tags,
      summary: 'Find objects with MongoDB-style criteria',
      description: 'Body {search: criteria, options: {limit, skip, fields, sort}}; criteria sent without the wrapper are taken as the search. Operators $in, $nin, $gt/$gte/$lt/$lte, $regex with $options (RE2), $elemMatch (properties), $exists, $and/$or/$nor; code-running operators are refused.',
      body: SearchBody,
      querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })), skip: Type.Optional(Type.Integer({ minimum: 0 })) }),
      response: { 200: Type.Array(ObjectSchema) },
    },
    preValidation: async (req) => {
      if (req.body === undefined) req.body = {};
    },
  }, async (req, reply) => {
    const who = actor(req);
    const body = req.body ?? {};
    const opts = body.options ?? {};
    // Criteria sent bare (without the {search} wrapper) are taken as the search, rather than
    // ignored as unknown fields, which would answer every object.
    const { search: wrapped, options: _options, ...bare } = body as Record<string, unknown>;
    const criteria = (wrapped as Record<string, unknown> | undefined) ?? bare;
    const limit = opts.limit ?? req.query.limit ?? 10000;
    const skip = opts.skip ?? req.query.skip ?? 0;
    const fields = orFull(parseFields(opts.fields));
    const sorted = opts.sort && Object.keys(opts.sort).length > 0;
    const found = await s.search.match(who, criteria, sorted ? {} : { stopAfter: skip + limit });
    const ordered = sorted ? sortObjects(found, opts.sort!, who, s.catalog) : found;
    return sendRecords(reply, { items: ordered.slice(skip, skip + limit), view: (o) => objectView(s.catalog, who, o, fields) });
  });

  api.get('/objects/:id', {
    schema: { tags, summary: 'One object', description: FULL, params: IdParams, querystring: FieldsQuery, response: { 200: ObjectSchema } },
  }, async (req) => s.queries.getObject(actor(req), req.params.id, orFull(parseFields(req.query.fields))));

  api.patch('/objects/:id', {
    schema: {
      tags,
      summary: 'Change an object (its class cannot change); properties, when given, replace its properties',
      description: 'Right modify-objects or manage-objects; changed properties take the rights of the props routes (manage-properties; type 8 manage-service-properties; '
        + 'read-only ones refuse change or removal: 409). Answers the full record.',
      params: IdParams,
      body: PatchObjectRequest,
      response: { 200: ObjectSchema },
    },
  }, async (req) => {
    const who = actor(req);
    // Compared with the record as this caller reads it (a hidden object answers 404 here).
    refuseUnwritableFields(req.body, PATCH_FIELDS, objectView(s.catalog, who, s.queries.visibleObject(who, req.params.id), FULL_FIELDS), FULL_FIELDS);
    return objectView(s.catalog, who, await s.objects.update(who, req.params.id, req.body), FULL_FIELDS);
  });

  api.delete('/objects/:id', {
    schema: {
      tags,
      summary: 'Delete an object, the children it leaves without a parent, and their links',
      description: 'Right delete-objects or manage-objects. The root cannot be deleted (409).',
      params: IdParams,
      response: { 204: Type.Null() },
    },
  }, async (req, reply) => {
    await s.objects.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });

  api.get('/objects/:id/children', {
    schema: { tags, summary: 'Child objects (paged), full records', description: `${FULL} ${PAGED}`, params: IdParams, querystring: ListQuery, response: { 200: Type.Array(ObjectSchema) } },
  }, async (req, reply) => sendPage(req, reply, page(req.query), s.queries.children(actor(req), req.params.id, page(req.query), orFull(parseFields(req.query.fields)))));

  api.get('/objects/:id/children/links', {
    schema: { tags, summary: 'Links whose two ends are both children of the object (paged), full records', description: `Without fields: full link records. ${PAGED}`, params: IdParams, querystring: ListQuery, response: { 200: Type.Array(LinkSchema) } },
  }, async (req, reply) => sendPage(req, reply, page(req.query), s.queries.childLinks(actor(req), req.params.id, page(req.query), orFull(parseFields(req.query.fields)))));

  api.get('/objects/:id/paths', {
    schema: { tags, summary: 'Every path from the object up to the root, with a record of each object on them', params: IdParams, response: { 200: PathsSchema } },
  }, async (req) => s.queries.paths(actor(req), req.params.id));
}
