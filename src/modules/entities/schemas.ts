// Schemas of objects, links and entity listings: request validation, handler types and the
// OpenAPI document. Requests are lenient about fields they do not know (a client may send back
// a whole record it read), strict about the type of the ones they do.
import { Type, type Static } from 'typebox';

const Millis = Type.Integer({ minimum: 0 });
/** Ids are strings; numbers are accepted on input, as clients of this API family send both. */
export const IdInput = Type.Union([Type.String({ maxLength: 32 }), Type.Integer({ minimum: 0 })]);
const NullableId = Type.Unsafe<string | number | null>({ type: ['string', 'integer', 'null'], maxLength: 32 });
const ClientData = Type.Unsafe<unknown>({ description: 'JSON text; an object or array is stored as its JSON text' });
const Tags = Type.Array(IdInput, { maxItems: 1000, description: 'tag ids' });
const Name = Type.String({ minLength: 1, maxLength: 1024 });

export const PropertyInput = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 256 }),
  value: Type.Union([
    Type.String({ maxLength: 65536 }), Type.Number(), Type.Boolean(), Type.Null(),
    Type.Record(Type.String(), Type.Unknown(), { description: 'stored as its JSON text: a check definition for type_id 8 (see CheckDefinition)' }),
  ], { description: 'stored as text. A service property (type_id 8) whose value is a JSON object (or its text) is a check: {type: http|tcp|ping|dns|snmp, target, interval, timeout?, ...}, validated (400 naming the field)' }),
  type_id: Type.Optional(Type.Integer({ description: '1 info, 2 read-only, 3 read-write, 6 external link, 7 document, 8 service, 101+ user-defined' })),
});
export type PropertyInputT = Static<typeof PropertyInput>;

export const PropertySchema = Type.Object({
  id: Type.String(),
  entity_id: Type.String(),
  name: Type.String(),
  value: Type.String(),
  type_id: Type.Integer(),
  created: Millis,
  updated: Millis,
  inherited: Type.Optional(Type.Boolean({ description: 'true on a property of the entity\'s class that it does not override (class templates); changed through /classes/:id/props' })),
  class_id: Type.Optional(Type.String({ description: 'on an inherited property: the class it comes from' })),
});

export const CreateObjectBody = Type.Object({
  name: Name,
  parent_id: Type.Optional(Type.Union([IdInput, Type.Array(IdInput, { maxItems: 1000 })], { description: 'array of parent ids; a single id is accepted' })),
  class_id: Type.Optional(NullableId),
  properties: Type.Optional(Type.Array(PropertyInput, { maxItems: 1000 })),
  tags: Type.Optional(Tags),
  client_data: Type.Optional(ClientData),
  discovery_id: Type.Optional(Type.Unsafe<string | null>({ type: ['string', 'null'], maxLength: 256 })),
}, { additionalProperties: true }); // other fields are checked by body-fields.ts (echoes accepted)
export type CreateObjectInput = Static<typeof CreateObjectBody>;

export const PatchObjectBody = Type.Partial(Type.Omit(CreateObjectBody, ['properties']));
export type PatchObjectInput = Static<typeof PatchObjectBody>;

/** A property in a list that replaces an entity's properties: matched by id, else by name. */
export const PropertyReplaceItem = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 32, description: 'the property to change (as read); without it, the property of that name' })),
  ...PropertyInput.properties,
  inherited: Type.Optional(Type.Boolean({ description: 'a property of the class sent back as read: left alone unless changed, when it becomes the entity\'s own (an override)' })),
  class_id: Type.Optional(Type.String({ maxLength: 32 })),
});
export type PropertyReplaceItemT = Static<typeof PropertyReplaceItem>;

const ReplaceProperties = Type.Array(PropertyReplaceItem, {
  maxItems: 1000,
  description: 'replaces the properties: ones left out are deleted, new names created, changed ones changed (rights as for the props routes; unchanged ones need none). '
    + 'A check secret sent back as shown (********) keeps the stored secret.',
});

const ECHO_NOTE = 'Fields of the record that cannot be changed (id, path, state_id, created, ...) are accepted when sent back with the value they have, '
  + 'and refused (400 naming the field) when they differ; a field the record does not have is refused too.';

/** PATCH /objects/:id: the changeable fields, and `properties` replacing the object's properties. */
export const PatchObjectRequest = Type.Object({ ...PatchObjectBody.properties, properties: Type.Optional(ReplaceProperties) }, { description: ECHO_NOTE, additionalProperties: true });
export type PatchObjectRequestT = Static<typeof PatchObjectRequest>;

/** The maintenance window an entity is in (modules/maintenance/), as its records show it. */
const EntityMaintenance = Type.Object({
  id: Type.String({ description: 'the window' }),
  name: Type.String(),
  until: Type.Integer({ description: 'ms, the end of the running occurrence' }),
  collectData: Type.Boolean({ description: 'false: its measurements are dropped meanwhile' }),
}, { description: 'present while the entity is in a running maintenance window (the one ending last)' });

export const ObjectSchema = Type.Object({
  id: Type.String(),
  entityType: Type.Optional(Type.Literal(1)),
  name: Type.Optional(Type.String()),
  parent_id: Type.Optional(Type.Array(Type.String())),
  path: Type.Optional(Type.String({ description: 'names from the root down, joined by "/" (through first parents)' })),
  class_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  state_id: Type.Optional(Type.Integer()),
  owner_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  client_data: Type.Optional(Type.String()),
  discovery_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  tags: Type.Optional(Type.Array(Type.String())),
  properties: Type.Optional(Type.Array(PropertySchema, { description: 'in full records (one object, children, search, create and change answers); in GET /objects with fields=properties' })),
  created: Type.Optional(Millis),
  updated: Type.Optional(Millis),
  class_name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'full records: the name of class_id' })),
  child_ids: Type.Optional(Type.Array(Type.String(), { description: 'full records: ids of the child objects the caller can see' })),
  last_state_update: Type.Optional(Type.Integer({ minimum: 0, description: 'full records: ms of the latest change of state_id (created, if it never changed)' })),
  metrics_cache: Type.Optional(Type.Array(Type.String(), { description: 'full records: names of the metrics the entity has history for, sorted' })),
  maintenance: Type.Optional(EntityMaintenance),
});

export const CreateLinkBody = Type.Object({
  source: IdInput,
  target: IdInput,
  name: Type.Optional(Type.String({ maxLength: 1024 })),
  class_id: Type.Optional(NullableId),
  properties: Type.Optional(Type.Array(PropertyInput, { maxItems: 1000 })),
  tags: Type.Optional(Tags),
  client_data: Type.Optional(ClientData),
  operations: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
}, { additionalProperties: true }); // other fields are checked by body-fields.ts (echoes accepted)
export type CreateLinkInput = Static<typeof CreateLinkBody>;

export const PatchLinkBody = Type.Partial(Type.Omit(CreateLinkBody, ['properties']));
export type PatchLinkInput = Static<typeof PatchLinkBody>;

/** PATCH /links/:id: the changeable fields, and `properties` replacing the link's properties. */
export const PatchLinkRequest = Type.Object({ ...PatchLinkBody.properties, properties: Type.Optional(ReplaceProperties) }, { description: ECHO_NOTE, additionalProperties: true });
export type PatchLinkRequestT = Static<typeof PatchLinkRequest>;

export const LinkSchema = Type.Object({
  id: Type.String(),
  entityType: Type.Optional(Type.Literal(2)),
  name: Type.Optional(Type.String()),
  source: Type.Optional(Type.String()),
  target: Type.Optional(Type.String()),
  source_name: Type.Optional(Type.String()),
  target_name: Type.Optional(Type.String()),
  class_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  state_id: Type.Optional(Type.Integer()),
  client_data: Type.Optional(Type.String()),
  tags: Type.Optional(Type.Array(Type.String())),
  operations: Type.Optional(Type.Array(Type.Unknown())),
  owner_id: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  properties: Type.Optional(Type.Array(PropertySchema)),
  created: Type.Optional(Millis),
  updated: Type.Optional(Millis),
  class_name: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  last_state_update: Type.Optional(Type.Integer({ minimum: 0 })),
  metrics_cache: Type.Optional(Type.Array(Type.String())),
  maintenance: Type.Optional(EntityMaintenance),
});

/** An element of an entity listing: an object record (entityType 1) or a link record (2). */
export const EntitySchema = Type.Union([ObjectSchema, LinkSchema]);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) });

/** `fields=a,b`, also repeated (`fields=a&fields=b`), as clients build query strings. */
const FieldsParam = Type.Union([Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 1000 }), { maxItems: 50 })], {
  description: 'comma-separated field names (or the parameter repeated); id is always included; names the server does not know are ignored',
});

export const ListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 10000, description: 'page size; at most (and by default) 10,000: page with skip beyond that' })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  fields: Type.Optional(FieldsParam),
});
export type ListQueryT = Static<typeof ListQuery>;

export const FieldsQuery = Type.Object({ fields: Type.Optional(FieldsParam) });

/** The short record other answers embed (entities/entity-summary.ts). */
export const EntitySummarySchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  parent_id: Type.Array(Type.String(), { description: 'the parents the caller can see (of a link: the objects it belongs to)' }),
  class_id: Type.Union([Type.String(), Type.Null()]),
  class_name: Type.Union([Type.String(), Type.Null()]),
  properties: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), value: Type.String(), type_id: Type.Integer() }), {
    description: 'secrets masked as /props masks them for the caller',
  }),
});

export const PathsSchema = Type.Object({
  paths: Type.Array(Type.Array(Type.String()), {
    description: 'one list of ids per path, from the object itself up to the root "1"; a path through an object the caller cannot see is left out whole',
  }),
  objects: Type.Array(EntitySummarySchema, { description: 'one record for every object named in `paths` (the object and the root included)' }),
});

export const SearchBody = Type.Object({
  search: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'MongoDB-style criteria over object fields, properties and tags' })),
  options: Type.Optional(Type.Object({
    limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000 })),
    skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000 })),
    fields: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 })])),
    sort: Type.Optional(Type.Record(Type.String(), Type.Union([Type.Literal(1), Type.Literal(-1), Type.Literal('asc'), Type.Literal('desc')]))),
  })),
}, { additionalProperties: true }); // criteria sent without the {search} wrapper are the search
export type SearchInput = Static<typeof SearchBody>;
