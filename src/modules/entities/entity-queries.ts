// Reading objects, links and entity listings, always through the actor's visibility.
// Lists walk the catalog in id order and build records for one page only.
import { notFound } from '../../errors.js';
import { type EntityActor, canSee, seen } from '../catalog/access.js';
import type { Catalog, MemEntity, MemLink, MemObject } from '../catalog/catalog.js';
import type { PagedList } from '../../core/input/record-list.js';
import { idOf, lookup } from './entity-input.js';
import { type EntitySummary, entitySummary } from './entity-summary.js';
import { type FieldSelection, type Record_, entityView, linkView, objectView } from './views.js';

export interface Page {
  limit: number;
  skip: number;
}

/**
 * One page of what `source` yields and `keep` lets through, and how many it lets through in
 * all (X-Total-Count, http/paged-list.ts): past the page it only counts.
 */
function pageOf<T>(source: Iterable<T>, keep: (item: T) => boolean, page: Page): { items: T[]; total: number } {
  const items: T[] = [];
  let total = 0;
  for (const item of source) {
    if (!keep(item)) continue;
    if (total++ < page.skip || items.length >= page.limit) continue;
    items.push(item);
  }
  return { items, total };
}

function* mapped<T, U>(source: Iterable<T>, f: (item: T) => U): Generator<U> {
  for (const item of source) yield f(item);
}

export function createEntityQueries({ catalog }: { catalog: Catalog }) {
  const anyEntity = (id: string) => lookup(catalog.object, id) ?? lookup(catalog.link, id);

  function visibleObject(actor: EntityActor, id: string): MemObject {
    return seen(actor, lookup(catalog.object, id), 'object', id);
  }

  /** The objects and then the links directly under an object, produced as a page needs them. */
  function* childEntities(id: string): Generator<MemEntity> {
    for (const c of catalog.childrenOf(id)) yield catalog.object(c)!;
    for (const l of catalog.linksAmongChildren(id)) yield catalog.link(l)!;
  }

  return {
    visibleObject,

    listObjects(actor: EntityActor, page: Page, fields: FieldSelection): PagedList<MemObject> {
      return { ...pageOf(catalog.allObjects(), (o) => canSee(actor, o), page), view: (o) => objectView(catalog, actor, o, fields) };
    },

    getObject(actor: EntityActor, id: string, fields: FieldSelection): Record_ {
      return objectView(catalog, actor, visibleObject(actor, id), fields);
    },

    children(actor: EntityActor, id: string, page: Page, fields: FieldSelection): PagedList<MemObject> {
      visibleObject(actor, id);
      const kids = mapped(catalog.childrenOf(id), (c) => catalog.object(c)!);
      return { ...pageOf(kids, (o) => canSee(actor, o), page), view: (o) => objectView(catalog, actor, o, fields) };
    },

    childLinks(actor: EntityActor, id: string, page: Page, fields: FieldSelection): PagedList<MemLink> {
      visibleObject(actor, id);
      const links = mapped(catalog.linksAmongChildren(id), (l) => catalog.link(l)!);
      return { ...pageOf(links, (l) => canSee(actor, l), page), view: (l) => linkView(catalog, l, fields, actor) };
    },

    /**
     * Every path the actor may see, as ids from the object up to the root (the shape clients of
     * this API family parse), with one summary record per object named; a path through a hidden
     * object is left out whole, so no hidden object is named or described.
     */
    paths(actor: EntityActor, id: string): { paths: string[][]; objects: EntitySummary[] } {
      const o = visibleObject(actor, id);
      const paths = catalog.visiblePaths(actor.visibility, o.id).map((path) => [...path].reverse());
      // Each object once, the object itself first (every path starts with it).
      const objects = [...new Set(paths.flat())].map((node) => entitySummary(catalog, actor, catalog.object(node)!));
      return { paths, objects };
    },

    listLinks(actor: EntityActor, page: Page, fields: FieldSelection): PagedList<MemLink> {
      return { ...pageOf(catalog.allLinks(), (l) => canSee(actor, l), page), view: (l) => linkView(catalog, l, fields, actor) };
    },

    getLink(actor: EntityActor, id: string, fields: FieldSelection): Record_ {
      return linkView(catalog, seen(actor, lookup(catalog.link, id), 'link', id), fields, actor);
    },

    getEntity(actor: EntityActor, id: string, fields: FieldSelection): Record_ {
      return entityView(catalog, actor, seen(actor, anyEntity(id), 'entity', id), fields);
    },

    entityChildren(actor: EntityActor, id: string, page: Page, fields: FieldSelection): PagedList<MemEntity> {
      const view = (e: MemEntity) => entityView(catalog, actor, e, fields);
      const key = idOf(id);
      if (key === undefined || !catalog.hasObject(key)) {
        // A link has no children; an unknown id is absent.
        seen(actor, anyEntity(id), 'entity', id);
        return { items: [], total: 0, view };
      }
      visibleObject(actor, key);
      return { ...pageOf(childEntities(key), (e) => canSee(actor, e), page), view };
    },

    /** The entity (object or link) an id names, if the actor may see it. */
    visibleEntity(actor: EntityActor, id: string): MemEntity {
      const e = anyEntity(id);
      if (!e || !canSee(actor, e)) throw notFound(`entity ${id}`);
      return e;
    },

    visibleLink(actor: EntityActor, id: string): MemLink {
      return seen(actor, lookup(catalog.link, id), 'link', id);
    },
  };
}

export type EntityQueries = ReturnType<typeof createEntityQueries>;
