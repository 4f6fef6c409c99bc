// Documents of objects and links: an uploaded file (kept in the database) or a URL. Reading
// follows the entity's visibility (a hidden entity's documents are as absent as the entity);
// adding and deleting need the entity's modify right (declared on the routes) and the entity
// inside the caller's objectPermissions. A URL's credentials and query values are secrets, so
// readers without manage-service-properties see them masked, as everywhere (core/secrets).
import { maskUrl, readsSecrets } from '../../core/secrets/mask.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { refuseUnknownFields } from '../../core/input/known-fields.js';
import { API_PREFIX } from '../../core/api-prefix.js';
import type { DocRow, DocsStore, NewDoc } from '../../storage/docs-types.js';
import { canChange, outsidePermissions, type EntityActor } from '../catalog/access.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { EntityQueries } from '../entities/entity-queries.js';
import { safeContentType, safeFileName, safeName } from './file-names.js';
import type { DocSchema } from './schemas.js';
import type { Static } from 'typebox';

export type DocKind = 'objects' | 'links';

/** Documents one entity may hold: every one is a row read by the list, and files weigh. */
export const MAX_DOCS_PER_ENTITY = 1000;
export const MAX_URL_LENGTH = 2048;
const URL_FIELDS = ['url', 'name'] as const;

/** A document as the API shows it (the route's schema is the one definition). */
export type DocView = Static<typeof DocSchema>;

export interface NewFile {
  /** The name to show, when the client gave one; else the uploaded file's own name. */
  name?: string;
  fileName?: string;
  contentType?: string;
  content: Buffer;
}

/** The path at which a file document is served back (GET, same credentials as the API). */
export const filePath = (kind: DocKind, entityId: string, docId: string) => `${API_PREFIX}/${kind}/${entityId}/docs/${docId}/file`;

function urlOf(given: unknown): string {
  if (typeof given !== 'string' || given.length > MAX_URL_LENGTH) throw badRequest(`body.url: must be a URL of at most ${MAX_URL_LENGTH} characters`);
  let u: URL;
  try {
    u = new URL(given);
  } catch {
    throw badRequest('body.url: not a URL');
  }
  // A javascript: or data: URL would run in the UI's origin when a reader clicks it.
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw badRequest('body.url: only http and https URLs are taken');
  return given;
}

export function createDocsService({ store, queries, clock }: { store: DocsStore; queries: EntityQueries; clock: () => number }) {
  function view(actor: EntityActor, kind: DocKind, row: DocRow): DocView {
    const value = row.url === null ? filePath(kind, row.entityId, row.id) : readsSecrets(actor.rights) ? row.url : maskUrl(row.url);
    return { id: row.id, value, name: row.name, contentType: row.contentType, size: row.size, created: row.created, userId: row.userId };
  }

  /** The entity if the actor sees it; a hidden one, or one of the other kind, is absent (404). */
  function visible(actor: EntityActor, kind: DocKind, id: string): MemEntity {
    return kind === 'objects' ? queries.visibleObject(actor, id) : queries.visibleLink(actor, id);
  }

  /** The entity the actor may add documents to or delete them from (its right is on the route). */
  function changeable(actor: EntityActor, kind: DocKind, id: string): MemEntity {
    const entity = visible(actor, kind, id);
    if (!canChange(actor, entity)) throw outsidePermissions(`entity ${entity.id}`);
    return entity;
  }

  async function add(actor: EntityActor, kind: DocKind, entity: MemEntity, doc: NewDoc): Promise<DocView> {
    if ((await store.count(entity.id)) >= MAX_DOCS_PER_ENTITY) throw conflict(`entity ${entity.id} already has ${MAX_DOCS_PER_ENTITY} documents`);
    const row = await store.create(doc);
    if (!row) throw notFound(`${kind === 'objects' ? 'object' : 'link'} ${entity.id}`);
    return view(actor, kind, row);
  }

  return {
    /** Checked before an upload is read, so a refused one costs no more than its headers. */
    changeable,

    async list(actor: EntityActor, kind: DocKind, id: string, page: { limit: number; skip: number }): Promise<DocView[]> {
      const entity = visible(actor, kind, id);
      return (await store.list(entity.id, page)).map((row) => view(actor, kind, row));
    },

    addFile(actor: EntityActor, kind: DocKind, id: string, file: NewFile): Promise<DocView> {
      const entity = changeable(actor, kind, id);
      return add(actor, kind, entity, {
        entityId: entity.id, name: file.name !== undefined ? safeName(file.name) : safeFileName(file.fileName), url: null, contentType: safeContentType(file.contentType), content: file.content, userId: actor.userId, created: clock(),
      });
    },

    addUrl(actor: EntityActor, kind: DocKind, id: string, body: unknown): Promise<DocView> {
      const entity = changeable(actor, kind, id);
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('body: send {"url": "https://..."} as JSON, or a file as multipart/form-data');
      refuseUnknownFields(body, URL_FIELDS);
      const { url, name } = body as { url?: unknown; name?: unknown };
      if (name !== undefined && typeof name !== 'string') throw badRequest('body.name: must be a string');
      const checked = urlOf(url);
      return add(actor, kind, entity, {
        entityId: entity.id, name: safeName(name ?? checked), url: checked, contentType: null, content: null, userId: actor.userId, created: clock(),
      });
    },

    /** A file document's row and bytes; a URL document has no file here (404, its value is the URL). */
    async file(actor: EntityActor, kind: DocKind, id: string, docId: string) {
      const entity = visible(actor, kind, id);
      const row = await store.get(entity.id, docId);
      if (!row || row.content === null) throw notFound(`document ${docId}`);
      return { ...row, content: row.content, contentType: row.contentType ?? 'application/octet-stream' };
    },

    async remove(actor: EntityActor, kind: DocKind, id: string, docId: string): Promise<void> {
      const entity = changeable(actor, kind, id);
      if (!(await store.delete(entity.id, docId))) throw notFound(`document ${docId}`);
    },
  };
}

export type DocsService = ReturnType<typeof createDocsService>;
