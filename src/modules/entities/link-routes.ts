// Routes of /links and /entities (objects and links in one listing).
import { Type } from 'typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import { CreateLinkBody, EntitySchema, FieldsQuery, IdParams, LinkSchema, ListQuery, PatchLinkRequest } from './schemas.js';
import { FULL_FIELDS, linkView, orFull, parseFields } from './views.js';
import { STREAM_OVER, sendRecords } from '../../http/record-list.js';
import { TOTAL_HEADER, pageHeaders, sendPage } from '../../http/paged-list.js';
import { type PagedList } from '../../core/input/record-list.js';
import { refuseUnwritableFields, writableFields } from './body-fields.js';
import type { MemEntity } from '../catalog/catalog.js';
import { ROOT_ID } from '../../core/entity-graph.js';

const page = (q: { limit?: number; skip?: number }) => ({ limit: q.limit ?? 10000, skip: q.skip ?? 0 });
const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends JSON serialised here; Fastify passes strings through its response schema untouched. */
const sendJson = (reply: FastifyReply, value: unknown) => reply.type(JSON_TYPE).send(JSON.stringify(value) as never);

/** A page of mixed records: JSON text made here, streamed when long (see record-list.ts), with the page headers. */
function sendEntities(req: FastifyRequest, reply: FastifyReply, page: { skip: number; limit: number }, list: PagedList<MemEntity>) {
  pageHeaders(req, reply, page, list.items.length, list.total);
  return list.items.length > STREAM_OVER ? sendRecords(reply, list) : sendJson(reply, list.items.map(list.view));
}

const CREATE_FIELDS = writableFields(CreateLinkBody);
const PATCH_FIELDS = writableFields(PatchLinkRequest);
const NEW_LINK = { entityType: 2 };
const PAGED = `Header ${TOTAL_HEADER}: how many the caller may see in all; header Link rel="next" while more remain after this page.`;

export function linkRoutes(api: Api, s: CatalogServices): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));
  const tags = ['links'];

  api.get('/links', {
    schema: { tags, summary: 'Links the caller may see (both ends visible), paged', description: PAGED, querystring: ListQuery, response: { 200: Type.Array(LinkSchema) } },
  }, async (req, reply) => sendPage(req, reply, page(req.query), s.queries.listLinks(actor(req), page(req.query), parseFields(req.query.fields))));

  api.get('/links/:id', {
    schema: { tags, summary: 'One link: without fields, the full record (properties, class_name, last_state_update, metrics_cache)', params: IdParams, querystring: FieldsQuery, response: { 200: LinkSchema } },
  }, async (req) => s.queries.getLink(actor(req), req.params.id, orFull(parseFields(req.query.fields))));

  api.post('/links', {
    schema: {
      tags, summary: 'Create a link between two visible objects', description: 'Right create-links or manage-links. A field this route does not write is refused (400 naming it).', body: CreateLinkBody, response: { 201: LinkSchema },
    },
  }, async (req, reply) => {
    refuseUnwritableFields(req.body, CREATE_FIELDS, NEW_LINK, FULL_FIELDS);
    return reply.code(201).send(linkView(s.catalog, await s.links.create(actor(req), req.body), FULL_FIELDS, actor(req)));
  });

  api.patch('/links/:id', {
    schema: {
      tags,
      summary: 'Change a link; properties, when given, replace its properties',
      description: 'Right modify-links or manage-links; changed properties take the rights of the props routes. Answers the full record.',
      params: IdParams,
      body: PatchLinkRequest,
      response: { 200: LinkSchema },
    },
  }, async (req) => {
    const who = actor(req);
    refuseUnwritableFields(req.body, PATCH_FIELDS, linkView(s.catalog, s.queries.visibleLink(who, req.params.id), FULL_FIELDS, who), FULL_FIELDS);
    return linkView(s.catalog, await s.links.update(who, req.params.id, req.body), FULL_FIELDS, who);
  });

  api.delete('/links/:id', {
    schema: { tags, summary: 'Delete a link', description: 'Right manage-links.', params: IdParams, response: { 204: Type.Null() } },
  }, async (req, reply) => {
    await s.links.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });

  const entityTags = ['entities'];
  // The base document names entityPermissions for listing root entities, and /entities is
  // /entities/1/children: both listings of the mixed /entities family take the right, so the
  // same content never needs it on one route and not on the other (pen test, issue 15).
  // Objects and links stay readable on their own routes within objectPermissions: a user
  // without rights reads what it may see (api-extensions.md "Users").
  const ENTITY_LISTING = { right: 'entityPermissions' } as const;
  // Listings mix two record kinds; they are serialised here, not matched against a union per item.
  api.get('/entities', {
    schema: {
      tags: entityTags,
      summary: 'Child objects and links of the root (= /entities/1/children), full records',
      description: `Without fields: full records, as /objects/1/children and /objects/1/children/links give them. ${PAGED}`,
      querystring: ListQuery,
      response: { 200: Type.Array(EntitySchema) },
    },
    config: ENTITY_LISTING,
  }, async (req, reply) => sendEntities(req, reply, page(req.query), s.queries.entityChildren(actor(req), ROOT_ID, page(req.query), orFull(parseFields(req.query.fields)))));

  api.get('/entities/:id', {
    schema: { tags: entityTags, summary: 'One entity: an object (entityType 1) or a link (2); without fields, the full record', params: IdParams, querystring: FieldsQuery, response: { 200: EntitySchema } },
  }, async (req, reply) => sendJson(reply, s.queries.getEntity(actor(req), req.params.id, orFull(parseFields(req.query.fields)))));

  api.get('/entities/:id/children', {
    schema: { tags: entityTags, summary: 'Child objects of an object, then the links between them, full records', description: PAGED, params: IdParams, querystring: ListQuery, response: { 200: Type.Array(EntitySchema) } },
    config: ENTITY_LISTING,
  }, async (req, reply) => sendEntities(req, reply, page(req.query), s.queries.entityChildren(actor(req), req.params.id, page(req.query), orFull(parseFields(req.query.fields)))));
}
