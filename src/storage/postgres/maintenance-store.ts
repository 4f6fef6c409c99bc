import type { MaintenanceRow, MaintenanceStore, NewMaintenance } from '../maintenance-types.js';
import type { PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { authorValue, changeableValues, MAINTENANCE_COLUMNS, toMaintenanceRecord, type MaintenanceDbRow } from '../rows/maintenance-row.js';

export function createPgMaintenanceStore(db: PgDb): MaintenanceStore {
  return {
    all: async () => (await db.rows<MaintenanceDbRow>(`SELECT ${MAINTENANCE_COLUMNS} FROM maintenance_windows ORDER BY id`)).map(toMaintenanceRecord),
    async create(row: NewMaintenance) {
      const r = await db.one<MaintenanceDbRow>(`INSERT INTO maintenance_windows (name, description, schedule, time_zone, scope, collect_data, enabled, updated, created, author)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${MAINTENANCE_COLUMNS}`, [...changeableValues(row), row.created, authorValue(row.author)]);
      return toMaintenanceRecord(r!);
    },
    async update(row: MaintenanceRow) {
      const key = rowId(row.id);
      const r = key === undefined ? undefined : await db.one<MaintenanceDbRow>(`UPDATE maintenance_windows SET name = $1, description = $2, schedule = $3, time_zone = $4,
        scope = $5, collect_data = $6, enabled = $7, updated = $8 WHERE id = $9 RETURNING ${MAINTENANCE_COLUMNS}`, [...changeableValues(row), key]);
      return r && toMaintenanceRecord(r);
    },
    async delete(id: string) {
      const key = rowId(id);
      return key !== undefined && (await db.query('DELETE FROM maintenance_windows WHERE id = $1', [key])).rowCount! > 0;
    },
  };
}
