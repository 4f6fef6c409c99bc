// TODO(issue 4): incidents.
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { IncidentsStore } from '../../storage/incidents-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { EventBus } from '../live/event-bus.js';
import type { IncidentSignal } from './incident-signal.js';
import type { IncidentLevelsService } from './levels-service.js';

export interface IncidentsDeps {
  store: IncidentsStore;
  levels: IncidentLevelsService;
  catalog: Catalog;
  bus: EventBus;
  clock: () => number;
  logger: Logger;
  settings: Config['incidents'];
}

export async function createIncidentsService(_deps: IncidentsDeps) {
  return {
    /** Applies the engine's signals of one batch (one transaction). */
    async signals(_list: IncidentSignal[]): Promise<void> {},
    /** Stops timers; called on shutdown. */
    async stop(): Promise<void> {},
  };
}
export type IncidentsService = Awaited<ReturnType<typeof createIncidentsService>>;
