import type Database from 'better-sqlite3';
import type { MaintenanceRow, MaintenanceStore, NewMaintenance } from '../maintenance-types.js';
import type { WriteGate } from './write-gate.js';
import { authorValue, changeableValues, MAINTENANCE_COLUMNS, toMaintenanceRecord, type MaintenanceDbRow } from '../rows/maintenance-row.js';

export function createSqliteMaintenanceStore(db: Database.Database, gate: WriteGate): MaintenanceStore {
  const all = db.prepare(`SELECT ${MAINTENANCE_COLUMNS} FROM maintenance_windows ORDER BY id`);
  const insert = db.prepare(`INSERT INTO maintenance_windows (name, description, schedule, time_zone, scope, collect_data, enabled, updated, created, author)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING ${MAINTENANCE_COLUMNS}`);
  const change = db.prepare(`UPDATE maintenance_windows SET name = ?, description = ?, schedule = ?, time_zone = ?, scope = ?, collect_data = ?, enabled = ?, updated = ?
    WHERE id = ? RETURNING ${MAINTENANCE_COLUMNS}`);
  const remove = db.prepare('DELETE FROM maintenance_windows WHERE id = ?');
  return {
    all: async () => (all.all() as MaintenanceDbRow[]).map(toMaintenanceRecord),
    create: (row: NewMaintenance) => gate.run(() => toMaintenanceRecord(insert.get(...changeableValues(row), row.created, authorValue(row.author)) as MaintenanceDbRow)),
    update: (row: MaintenanceRow) =>
      gate.run(() => {
        const r = change.get(...changeableValues(row), Number(row.id)) as MaintenanceDbRow | undefined;
        return r && toMaintenanceRecord(r);
      }),
    delete: (id: string) => gate.run(() => remove.run(Number(id)).changes > 0),
  };
}
