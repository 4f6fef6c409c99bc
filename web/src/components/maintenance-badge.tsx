// "in maintenance": shown beside an entity's state while a maintenance window covers it (the
// record's `maintenance` field), naming the window and its end.
import { formatTime } from './format';

export interface EntityMaintenance {
  id: string;
  name: string;
  until: number;
  collectData?: boolean;
}

export const maintenanceText = (m: EntityMaintenance) =>
  `In maintenance: ${m.name} until ${formatTime(m.until)}${m.collectData === false ? ' (data not collected)' : ''}`;

export function MaintenanceBadge({ maintenance }: { maintenance: EntityMaintenance | undefined }) {
  if (!maintenance) return null;
  return (
    <span className="badge maint-badge" title={maintenanceText(maintenance)} aria-label={maintenanceText(maintenance)}>
      in maintenance
    </span>
  );
}
