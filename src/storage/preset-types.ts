// View presets: a user's saved page layouts (columns, sort, filters), found by the key of the
// page that uses them; private to their owner unless shared.

export interface PresetRow {
  id: string;
  ownerId: string;
  name: string;
  key: string;
  data: Record<string, unknown>;
  shared: boolean;
  created: number;
  updated: number;
}

export type NewPreset = Omit<PresetRow, 'id'>;

export interface PresetQuery {
  /** The caller: their own presets and the shared ones. */
  viewerId: string;
  key?: string;
  limit: number;
  skip: number;
}

export interface PresetsStore {
  /** Stores the preset unless its owner already has `maxPerOwner`: then undefined. */
  create(row: NewPreset, maxPerOwner: number): Promise<PresetRow | undefined>;
  get(id: string): Promise<PresetRow | undefined>;
  /** By id (creation order). */
  find(query: PresetQuery): Promise<PresetRow[]>;
  /** Stores name, key, data, shared and updated; undefined when it is gone. */
  update(row: PresetRow): Promise<PresetRow | undefined>;
  delete(id: string): Promise<boolean>;
}
