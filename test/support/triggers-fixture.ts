// Test support: the triggers service on a real store of the run's test backend (SQLite in a
// temp dir, or a database of its own on the test cluster when VIGIL_TEST_BACKEND=postgres), fed
// by a bus the test publishes on, over a small catalog the test edits directly (entities, their
// state and triggers).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import type { StateTrigger } from '../../src/core/conditions/entity-settings.js';
import { DEFAULT_DENY_NETWORKS } from '../../src/core/net-policy.js';
import { openStorage } from '../../src/storage/open-storage.js';
import type { StateRow } from '../../src/storage/catalog-types.js';
import type { Storage } from '../../src/storage/types.js';
import type { Catalog } from '../../src/modules/catalog/catalog.js';
import { EventBus, type StateReason } from '../../src/modules/live/event-bus.js';
import { createTriggersService, type TriggerLimits, type TriggersService } from '../../src/modules/triggers/service.js';
import { databaseUrlFor, dropDatabaseOf } from '../helpers/test-database.js';

const STATE_NAMES: Record<number, string> = { 1: 'Created', 3: 'Working', 4: 'Overloaded', 5: 'Alarm', 6: 'Stopped', 7: 'NoData', 8: 'Down', 9: 'Disable' };

interface FakeEntity {
  id: string;
  entityType: 1 | 2;
  name: string;
  state_id: number;
}

export interface TriggerFixture {
  service: TriggersService;
  storage: Storage;
  bus: EventBus;
  /** Adds an entity (state Working) with these triggers. */
  entity(id: string, name: string, triggers: StateTrigger[], entityType?: 1 | 2): void;
  setTriggers(id: string, triggers: StateTrigger[]): void;
  /** Moves the entity to `stateId` and publishes the state event, as the engine does. */
  changeState(id: string, stateId: number, reason?: StateReason): void;
  /** Changes the entity's state without an event (one the service missed). */
  setStateQuietly(id: string, stateId: number): void;
  deleteEntity(id: string): void;
  /** Stops the service and starts a new one on the same storage and entities (a restart). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export type TriggerSettings = Config['triggers'];

export const testSettings = (over: Partial<TriggerSettings> = {}): TriggerSettings => ({
  webhookRetries: 3,
  retryBaseMs: 5,
  denyNetworks: [...DEFAULT_DENY_NETWORKS],
  allowNetworks: [],
  smtp: { host: '', port: 25, secure: false, from: 'vigil@example.test' },
  ...over,
});

export async function triggerFixture(settings: TriggerSettings = testSettings(), limits?: Partial<TriggerLimits>): Promise<TriggerFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-triggers-'));
  // The backend the run tests (the data dir's own database on PostgreSQL), as servers of the tests get.
  const databaseUrl = await databaseUrlFor(dir);
  const storage = await openStorage(loadConfig({}, { dataDir: dir, adminPassword: 'unused-pass-1', logLevel: 'silent', ...(databaseUrl ? { databaseUrl } : {}) }));
  const entities = new Map<string, FakeEntity>();
  const documents = new Map<string, StateTrigger[]>();
  const deletedListeners: Array<(ids: string[]) => void> = [];
  const states = new Map<number, StateRow>(
    Object.entries(STATE_NAMES).map(([id, name]) => [Number(id), { id: Number(id), name, priority: 0, color: '#000000', builtIn: true, created: 0, updated: 0 }]),
  );
  const catalog = {
    state: (id: number) => states.get(id),
    entity: (id: string) => entities.get(id),
    setting: (id: string, kind: string) => (kind === 'stateTriggers' && documents.has(id) ? { entity_id: id, kind, value: documents.get(id)!, updated: 0 } : undefined),
    onDeleted: (listener: (ids: string[]) => void) => void deletedListeners.push(listener),
  } as unknown as Catalog;
  const bus = new EventBus();
  const create = () =>
    createTriggersService({ store: storage.triggerRuns, memory: storage.engineMemory, catalog, bus, clock: Date.now, logger: pino({ level: 'silent' }), settings, limits });
  const first = create();
  // A fresh store holds no waits: nothing to load before the timers may run.
  first.start();
  const fixture: TriggerFixture = {
    service: first,
    storage,
    bus,
    entity(id, name, triggers, entityType = 1) {
      entities.set(id, { id, entityType, name, state_id: 3 });
      documents.set(id, triggers);
    },
    setTriggers: (id, triggers) => void documents.set(id, triggers),
    changeState(id, stateId, reason = { code: 13 }) {
      const e = entities.get(id)!;
      const previousStateId = e.state_id;
      e.state_id = stateId;
      bus.publish({ type: 'state', entityId: id, entityType: e.entityType, entityName: e.name, stateId, previousStateId, reason, timestamp: Date.now() });
    },
    setStateQuietly: (id, stateId) => void (entities.get(id)!.state_id = stateId),
    deleteEntity(id) {
      entities.delete(id);
      documents.delete(id);
      for (const l of deletedListeners) l([id]);
    },
    async restart() {
      await fixture.service.stop();
      fixture.service = create();
      await fixture.service.load();
      fixture.service.start();
    },
    async close() {
      await fixture.service.stop();
      await storage.close();
      await dropDatabaseOf(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}
