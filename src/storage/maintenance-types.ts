// Maintenance windows: when (a schedule in a time zone) and what (objects, their subtrees,
// tags) is under maintenance. Few rows, read whole at start: the service keeps them in memory.
import type { Schedule } from '../core/maintenance/schedule.js';

export interface MaintenanceScope {
  /** Object ids. */
  objects: string[];
  /** The objects' descendants too. */
  subtree: boolean;
  /** Tag ids: entities carrying one are in the window. */
  tags: string[];
}

export interface MaintenanceRow {
  id: string;
  name: string;
  description: string;
  schedule: Schedule;
  timeZone: string;
  scope: MaintenanceScope;
  /** Measurements of its entities are stored (true) or dropped (false) while it runs. */
  collectData: boolean;
  enabled: boolean;
  created: number;
  updated: number;
  /** User id of whoever created it. */
  author: string;
}

export type NewMaintenance = Omit<MaintenanceRow, 'id'>;

export interface MaintenanceStore {
  /** Every window, by id. */
  all(): Promise<MaintenanceRow[]>;
  create(row: NewMaintenance): Promise<MaintenanceRow>;
  /** Stores every field but id, created and author; undefined when it is gone. */
  update(row: MaintenanceRow): Promise<MaintenanceRow | undefined>;
  delete(id: string): Promise<boolean>;
}
