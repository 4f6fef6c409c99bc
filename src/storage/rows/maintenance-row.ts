// A maintenance_windows row as both dialects store it (schedule and scope as JSON text, flags
// as 0/1), the select list, and the row → record mapping, kept once for SQLite and PostgreSQL.
import type { Schedule } from '../../core/maintenance/schedule.js';
import type { MaintenanceRow, MaintenanceScope, NewMaintenance } from '../maintenance-types.js';

export interface MaintenanceDbRow {
  id: number | string;
  name: string;
  description: string;
  schedule: string;
  time_zone: string;
  scope: string;
  collect_data: number;
  enabled: number;
  created: number | string;
  updated: number | string;
  author: number | string;
}

export const MAINTENANCE_COLUMNS = 'id, name, description, schedule, time_zone, scope, collect_data, enabled, created, updated, author';

export const toMaintenanceRecord = (r: MaintenanceDbRow): MaintenanceRow => ({
  id: String(r.id),
  name: r.name,
  description: r.description,
  schedule: JSON.parse(r.schedule) as Schedule,
  timeZone: r.time_zone,
  scope: JSON.parse(r.scope) as MaintenanceScope,
  collectData: Number(r.collect_data) === 1,
  enabled: Number(r.enabled) === 1,
  created: Number(r.created),
  updated: Number(r.updated),
  author: String(r.author),
});

/** The values of the changeable columns, in the order name .. updated. */
export const changeableValues = (r: NewMaintenance | MaintenanceRow) => [
  r.name, r.description, JSON.stringify(r.schedule), r.timeZone, JSON.stringify(r.scope), r.collectData ? 1 : 0, r.enabled ? 1 : 0, r.updated,
];

/** The author column (a user's row id) as both dialects store it: 0 for an actor that is no user row. */
export const authorValue = (author: string): number => (/^[1-9][0-9]{0,15}$/.test(author) ? Number(author) : 0);
