// Record types of the objects list, taken from the server's generated schema (never copied).
import type { paths } from '../../../api/client';

export type ObjectRecord = paths['/node/api/objects/{id}/children']['get']['responses'][200]['content']['application/json'][number];
export type LinkRecord = paths['/node/api/objects/{id}/children/links']['get']['responses'][200]['content']['application/json'][number];

/** The object create/delete and the map act on: a row of the tree (key = its path) or a search hit. */
export interface Selection {
  id: string;
  name: string;
  /** The tree path ("1/12/40") when chosen in the tree; a search hit has none. */
  key?: string;
}

export const ROOT_ID = '1';
