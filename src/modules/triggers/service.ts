// TODO(issue 4): state triggers.
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { TriggerRunsStore } from '../../storage/trigger-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { EventBus } from '../live/event-bus.js';

export interface TriggersDeps {
  store: TriggerRunsStore;
  catalog: Catalog;
  bus: EventBus;
  clock: () => number;
  logger: Logger;
  settings: Config['triggers'];
}

export function createTriggersService(_deps: TriggersDeps) {
  return {
    /** Cancels pending timers and waits for sends in flight; called on shutdown. */
    async stop(): Promise<void> {},
  };
}
export type TriggersService = ReturnType<typeof createTriggersService>;
