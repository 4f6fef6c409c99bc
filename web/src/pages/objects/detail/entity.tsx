// Which kind of entity the detail tabs show: an object or a link. The link routes mirror the
// object ones (/links/{id}/props, /checks, /state, ... with the same shapes), so a tab names the
// object route (keeping openapi-fetch's exact types) and `route` swaps the prefix for a link.
import { createContext, useContext, type ReactNode } from 'react';

export type Entity = 'objects' | 'links';

type ObjectRoute = `/node/api/objects/{id}${string}`;
export type RouteOf = <P extends ObjectRoute>(path: P) => P;

const forObjects: RouteOf = (path) => path;
const forLinks: RouteOf = (path) => path.replace('/node/api/objects/', '/node/api/links/') as typeof path;

const EntityContext = createContext<Entity>('objects');

export function EntityProvider({ entity, children }: { entity: Entity; children: ReactNode }) {
  return <EntityContext.Provider value={entity}>{children}</EntityContext.Provider>;
}

export function useEntity(): Entity {
  return useContext(EntityContext);
}

/** The route of this entity for an object route; stable per entity, so it can sit in deps. */
export function useEntityRoute(): RouteOf {
  return routeFor(useEntity());
}

export function routeFor(entity: Entity): RouteOf {
  return entity === 'links' ? forLinks : forObjects;
}
