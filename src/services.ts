// Wires storage into the services: each service gets only the stores it needs.
import type { Logger } from 'pino';
import type { Config } from './config.js';
import { createLockout } from './modules/auth/lockout.js';
import { createSharedLockout } from './modules/auth/shared-lockout.js';
import type { CatalogServices } from './modules/catalog/catalog-services.js';
import type { CatalogStore } from './storage/catalog-types.js';
import type { CheckLimits } from './core/probes/check-definition.js';
import { Catalog } from './modules/catalog/catalog.js';
import { createAccess } from './modules/catalog/access.js';
import { createAuditService } from './modules/catalog/audit-service.js';
import { entityFacts, loadEntityFacts } from './modules/catalog/entity-facts.js';
import { createBulkService } from './modules/bulk/service.js';
import { createClassesService } from './modules/classes/service.js';
import { classLevelGuard, createClassTemplatesService } from './modules/classes/templates-service.js';
import { createEntityQueries } from './modules/entities/entity-queries.js';
import { createLinksService } from './modules/entities/links-service.js';
import { createObjectSearch } from './modules/entities/object-search.js';
import { createObjectsService } from './modules/entities/objects-service.js';
import { createPropertiesService } from './modules/entities/properties-service.js';
import { createPropertyRules } from './modules/entities/property-rules.js';
import { createSettingsService } from './modules/entities/settings-service.js';
import { createStatesService } from './modules/states/service.js';
import { createTagsService } from './modules/tags/service.js';
import { createAuthService, SESSION_ENDED, USER_SESSIONS_ENDED, type AuthService } from './modules/auth/service.js';
import { createSecurityLogService } from './modules/security-log/service.js';
import { createUsersService, USER_CHANGED } from './modules/users/service.js';
import { agentOwner } from './modules/agents/agent-owner.js';
import type { Storage } from './storage/types.js';
import { EventBus } from './modules/live/event-bus.js';
import { createIncidentLevelsService, LEVELS_CHANGED } from './modules/incidents/levels-service.js';
import { createIncidentsService } from './modules/incidents/service.js';
import { createDependencySuppressor } from './modules/dependencies/dependency-suppressor.js';
import { createDependenciesService } from './modules/dependencies/service.js';
import { createTriggersService } from './modules/triggers/service.js';
import { createNotificationsService } from './modules/notifications/service.js';
import { NOTIFICATION_CONFIG_CHANGED } from './modules/notifications/config-service.js';
import { createHistoryService } from './modules/history/history-service.js';
import { createHistoryQuery } from './modules/history/history-query.js';
import { createStatService } from './intake/stat-push.js';
import { createIngestService } from './modules/ingest/ingest-service.js';
import { createStateEngine, type IncidentSink, type StateEngine } from './modules/engine/state-engine.js';
import { createStatIntake } from './intake/stat-intake.js';
import { createAddressIndex } from './intake/address-index.js';
import { createEventIntake } from './intake/event-intake.js';
import { createEventLogService } from './modules/event-log/service.js';
import { setScanBudgets } from './core/safe-regex.js';
import { createAnnotationsService } from './modules/annotations/service.js';
import { createMaintenanceService, MAINTENANCE_CHANGED, type MaintenanceService } from './modules/maintenance/service.js';
import { createPresetsService } from './modules/presets/service.js';
import { createReportService } from './modules/reports/service.js';
import { createCheckIndex, type CheckIndex } from './modules/probes/check-index.js';
import { createProbeService } from './modules/probes/probe-service.js';
import { createAgentsService } from './modules/agents/service.js';
import { createDocsService } from './modules/docs/service.js';
import { createProvisioningService } from './modules/provisioning/service.js';
import { envSecret } from './config.js';
import { packageVersion } from './version.js';
import { createMembership } from './modules/cluster/membership.js';
import { resolveNodeId } from './modules/cluster/node-id.js';
import { createCheckPlacement } from './modules/cluster/check-placement.js';
import { createChangeFeed } from './modules/cluster/change-feed.js';
import { replicateCatalog } from './modules/cluster/catalog-replication.js';
import { relayLiveEvents } from './modules/cluster/live-relay.js';
import { createSelfMetrics, type SelfMetrics } from './modules/metrics/self-metrics.js';

const DAY = 86_400_000;
/** How often a node reads the lock-outs decided by the others. */
const LOCK_SYNC_MS = 500;
/** How often a node reads the change feed. */
const FEED_POLL_MS = 250;

/**
 * The catalog family (entities, properties, settings, tags, classes, states, bulk operations,
 * audit), built around one catalog loaded from its store.
 */
async function createCatalogServices({ store, clock, logger, incidentLevels, checkLimits }: {
  store: CatalogStore;
  /** Bounds of service-property checks (intervals). */
  checkLimits: CheckLimits;
  clock: () => number;
  logger: Logger;
  /** The incident level ids incident conditions may name. */
  incidentLevels: () => ReadonlySet<string>;
}): Promise<CatalogServices> {
  const catalog = await Catalog.load(store);
  await loadEntityFacts(catalog, store);
  const search = createObjectSearch({ catalog });
  const rules = createPropertyRules(checkLimits);
  const properties = createPropertiesService({ catalog, rules, clock });
  const objects = createObjectsService({ catalog, rules, properties, clock });
  const settings = createSettingsService({ catalog, clock, incidentLevels });
  const bulk = createBulkService({ catalog, store, search, objects, properties, settings, clock, logger });
  const abandoned = await bulk.recover();
  if (abandoned > 0) logger.warn({ abandoned }, 'bulk operations cut short by the last stop were marked as failed (nothing was changed)');
  return {
    catalog,
    facts: entityFacts(catalog),
    store,
    access: createAccess(catalog),
    queries: createEntityQueries({ catalog }),
    objects,
    links: createLinksService({ catalog, rules, properties, clock }),
    properties,
    rules,
    settings,
    search,
    tags: createTagsService({ catalog, clock }),
    classes: createClassesService({ catalog, clock }),
    templates: createClassTemplatesService({ catalog, rules, validate: (kind, value) => settings.validate(kind, value), clock }),
    states: createStatesService({ catalog, clock }),
    bulk,
    audit: createAuditService({ catalog, store }),
  };
}

/**
 * Stoppers of what has started so far, run newest first: a start that fails part-way stops
 * what it started (timers, the engine's queue, trigger waits) before the storage closes.
 */
class Started {
  private readonly stops: Array<() => unknown> = [];
  add(stop: () => unknown): void {
    this.stops.push(stop);
  }
  /**
   * Runs every stopper once, newest first; one that fails does not keep the others from
   * running, and the first failure is thrown at the end.
   */
  async stopAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const stop of this.stops.splice(0).reverse()) await Promise.resolve().then(stop).catch((err: unknown) => void failures.push(err));
    if (failures.length > 0) throw failures[0];
  }
}

/** Measurements and what follows from them: history, the engine, the intake path. */
async function createDataServices(config: Readonly<Config>, storage: Storage, started: Started, deps: {
  catalog: Catalog;
  checks: CheckIndex;
  incidents: IncidentSink;
  bus: EventBus;
  clock: () => number;
  logger: Logger;
  metrics: SelfMetrics;
  maintenance: MaintenanceService;
}) {
  const { catalog, checks, incidents, bus, clock, logger, metrics, maintenance } = deps;
  const history = createHistoryService({ store: storage.history, clock, logger });
  await history.load();
  const engine = createStateEngine({
    catalog, store: storage.catalog, memory: storage.engineMemory, history, incidents, bus, clock, logger,
    implicitConditions: (id) => checks.implicitConditions(id),
    settings: { noDataAfterMs: config.engine.noDataAfterMs, stateLevels: config.incidents.stateLevels },
    onPass: metrics.enginePass,
  });
  await engine.load();
  started.add(() => engine.stop());
  const intake = createStatIntake({
    history, catalog, bus, engine, clock, logger, checkpointMs: config.history.checkpointMs, onCheckpoint: metrics.checkpoint,
    dropsData: (id, now) => maintenance.dropsData(id, now),
  });
  await intake.start();
  started.add(() => intake.stop());
  return {
    history,
    engine,
    intake,
    stat: createStatService({ catalog, intake, clock, maxFutureMs: config.engine.maxFutureMs }),
    /** Prometheus remote-write and OpenTSDB put, through the same intake as /stat. */
    ingest: createIngestService({ catalog, intake, clock, maxFutureMs: config.engine.maxFutureMs, settings: config.ingest }),
    query: createHistoryQuery({ history, clock, rawRetentionMs: config.history.rawRetentionDays * DAY }),
    /** Drops raw points and rollups past their retention. */
    purge: () => {
      const now = clock();
      return storage.history.purge(now - config.history.rawRetentionDays * DAY, now - config.history.rollupRetentionDays * DAY);
    },
  };
}

/** Traps and MQTT messages: the event log, and the path that feeds it and the engine. */
async function createEventServices(config: Readonly<Config>, storage: Storage, deps: {
  catalog: Catalog;
  engine: StateEngine;
  clock: () => number;
  logger: Logger;
}) {
  const { catalog, engine, clock, logger } = deps;
  const eventLog = createEventLogService({ store: storage.eventLog, catalog, clock, logger, settings: config.eventLog });
  // Conditions on `event.*` see the same latest event after a restart as before it.
  engine.restoreEvents((await eventLog.latestPerEntity()).map((r) => ({
    entityId: r.entity!.entityId,
    event: { type: eventLog.typeName(r.type), agentId: r.agentId, timestamp: r.timestamp, payload: r.payload },
  })));
  const events = createEventIntake({ eventLog, engine, addresses: createAddressIndex(catalog), logger });
  return { eventLog, events };
}

/**
 * Builds every service on open storage. On failure it stops what it started and rethrows
 * (closing the storage is the caller's). `shutdown` stops them all once the server ran; state
 * triggers' waits run only after `triggers.start()`, which the caller calls once it started.
 */
export async function createServices(config: Readonly<Config>, storage: Storage, logger: Logger, clock: () => number = Date.now) {
  const started = new Started();
  try {
    return await buildServices(config, storage, logger, clock, started);
  } catch (err) {
    // The first failure is the one to report; the stoppers' own errors would hide it.
    await started.stopAll().catch(() => undefined);
    throw err;
  }
}

async function buildServices(config: Readonly<Config>, storage: Storage, logger: Logger, clock: () => number, started: Started) {
  setScanBudgets({ timeMs: config.http.scanTimeBudgetMs, cost: config.http.regexCostBudget });
  // Stopped last (added first): the lease is given up once what this node accepted is stored.
  const cluster = createMembership({
    store: storage.cluster, nodeId: resolveNodeId(config.cluster.nodeId, config.dataDir), version: packageVersion(), settings: config.cluster, logger,
    shared: storage.capabilities.sharedByNodes,
  });
  started.add(() => cluster.stop());
  // Per server, never global: several servers run in one test process.
  const metrics = createSelfMetrics();
  const securityLog = createSecurityLogService({ store: storage.securityLog, clock, logger, retentionDays: config.securityLog.retentionDays });
  started.add(() => securityLog.flush());
  // Users and auth need each other: a password change ends sessions, sign-in reads users.
  const endSessions = (userId: string, except?: string) => auth.endSessions(userId, except);
  // What other nodes changed reaches this node's copies within a quarter of a second.
  const feed = createChangeFeed({ store: storage.changes, nodeId: cluster.nodeId, pollMs: FEED_POLL_MS, clock: Date.now, logger, shared: storage.capabilities.sharedByNodes });
  started.add(() => feed.stop());
  await feed.mark();
  const users = createUsersService({ users: storage.users, endSessions, clock, feed });
  // Failures and locks shared with the other nodes through the database; the locks in force
  // are read twice a second, so a lock made on one node holds on all within a second. A
  // database only this node uses: the node's own counters are the whole story.
  const localLockout = createLockout(config.auth.lockout, clock);
  const lockout = storage.capabilities.sharedByNodes
    ? createSharedLockout({ local: localLockout, store: storage.lockouts, limits: config.auth.lockout, clock, logger })
    : undefined;
  await lockout?.start(LOCK_SYNC_MS);
  started.add(() => lockout?.stop());
  const auth: AuthService = createAuthService({
    users,
    sessions: storage.sessions,
    securityLog,
    lockout: lockout ?? localLockout,
    settings: {
      tokenEnabled: config.server.user.auth_token_enabled,
      idleTimeoutMs: config.session.idleTimeoutMs,
      absoluteTimeoutMs: config.session.absoluteTimeoutMs,
      credentialCacheTtlMs: config.auth.credentialCacheTtlMs,
    },
    clock,
    logger,
    feed,
  });
  feed.subscribe(USER_CHANGED, (id) => users.changedElsewhere(id));
  feed.subscribe(SESSION_ENDED, (idHash) => auth.forgetSession(idHash));
  feed.subscribe(USER_SESSIONS_ENDED, (id) => auth.forgetSessionsOf(id));
  const bus = new EventBus(logger);
  // What the live stream shows: this node's events, and on a shared database the other nodes'
  // state and incident events too (a bus of its own: triggers do not hear those).
  const relay = storage.capabilities.sharedByNodes ? relayLiveEvents(bus, feed, logger) : undefined;
  started.add(() => relay?.stop());
  const liveBus = relay?.stream ?? bus;
  const levels = await createIncidentLevelsService({ store: storage.incidents, clock, feed });
  feed.subscribe(LEVELS_CHANGED, () => levels.reload());
  const catalog = await createCatalogServices({ store: storage.catalog, clock, logger, incidentLevels: () => levels.ids(), checkLimits: config.probes });
  // Other nodes' catalog changes are taken into this node's memory (a database only one node uses: nothing to share).
  if (storage.capabilities.sharedByNodes) replicateCatalog(catalog.catalog, feed, cluster.nodeId, logger);
  levels.guardDeletion(classLevelGuard(catalog.catalog));
  const incidents = await createIncidentsService({ store: storage.incidents, levels, catalog: catalog.catalog, bus, clock, logger, settings: config.incidents });
  started.add(() => incidents.stop());
  const dependencies = createDependenciesService({ catalog: catalog.catalog, settings: catalog.settings });
  // Maintenance windows suppress incidents, hold state triggers and may drop measurements.
  const maintenance = createMaintenanceService({ store: storage.maintenance, catalog: catalog.catalog, incidents, clock, logger, feed });
  feed.subscribe(MAINTENANCE_CHANGED, () => maintenance.reload());
  await maintenance.load();
  started.add(() => maintenance.stop());
  const triggers = createTriggersService({
    store: storage.triggerRuns, memory: storage.engineMemory, catalog: catalog.catalog, bus, clock, logger, settings: config.triggers,
    muted: (id, now) => maintenance.muted(id, now),
  });
  started.add(() => triggers.stop());
  await triggers.load();
  maintenance.onChange(() => triggers.released());
  // Entity records show the window an entity is in (maintenance).
  catalog.facts.useMaintenance((id) => maintenance.entityMaintenance(id));
  const notifications = await createNotificationsService({
    store: storage.notifications, runs: storage.triggerRuns, memory: storage.engineMemory, bus, catalog: catalog.catalog, clock, logger,
    activeIncidents: () => incidents.activeFacts(),
    levels: {
      has: (id) => levels.has(id), name: (id) => levels.list().find((l) => l.id === String(id))?.name ?? `level ${id}`, priorityOf: (id) => levels.priorityOf(id), guardDeletion: (g) => levels.guardDeletion(g),
    },
    triggers: config.triggers, settings: config.notifications, feed,
  });
  feed.subscribe(NOTIFICATION_CONFIG_CHANGED, () => notifications.config.reload());
  started.add(() => notifications.stop());
  await notifications.load();
  const checks = createCheckIndex({ catalog: catalog.catalog, rules: catalog.rules, logger });
  const data = await createDataServices(config, storage, started, { catalog: catalog.catalog, checks, incidents, bus, clock, logger, metrics, maintenance });
  const dependencySuppressor = createDependencySuppressor({
    catalog: catalog.catalog, incidents, levels, bus, logger, defaultMinLevel: config.incidents.dependencies?.minLevel ?? '1', ownStateOf: (id) => data.engine.ownState(id),
  });
  started.add(() => dependencySuppressor.stop());
  // Every suppressor is registered (maintenance, dependencies) and notifications listen: what
  // ended while the server was down (a window, a manual suppression) lets its incidents go now.
  await incidents.start();
  // Full entity records name the metrics an entity has history for (metrics_cache).
  catalog.facts.useMetricNames((id) => data.history.metrics(id));
  const { eventLog, events } = await createEventServices(config, storage, { catalog: catalog.catalog, engine: data.engine, clock, logger });
  started.add(() => eventLog.flush());
  const annotations = createAnnotationsService({ store: storage.annotations, catalog: catalog.catalog, clock });
  const presets = createPresetsService({ store: storage.presets, clock });
  const reports = createReportService({ catalog: catalog.catalog, history: data.history, query: data.query });
  // A failed pass is logged by the engine; nothing else to do with it here.
  checks.onChange((id) => void data.engine.checksChanged(id).catch(() => undefined));
  const probes = createProbeService({
    index: checks, intake: data.intake, catalog: catalog.catalog, manualState: (id) => data.engine.manualState(id), logger, settings: config.probes,
    // Each check on one live node of the cluster (on SQLite: this one).
    placement: createCheckPlacement(cluster, config.cluster.heartbeatMs),
  });
  const agents = await createAgentsService({
    store: storage.agents, index: checks, catalog: catalog.catalog, owner: agentOwner(users, catalog.access, clock), manualState: (id) => data.engine.manualState(id), stale: (ids, detail) => data.engine.dataStale(ids, detail), clock, logger,
    settings: { agentDownAfterMs: config.probes.agentDownAfterMs, limits: config.probes },
  });
  started.add(() => agents.stop());
  const docs = createDocsService({ store: storage.docs, queries: catalog.queries, clock });
  // Configuration as code: main.ts applies it before the listeners open; POST /provisioning/apply later.
  const provisioning = createProvisioningService({
    dir: config.provisioning.dir,
    plan: { catalog, levels, users, secret: envSecret },
    apply: { catalog, levels, users },
    logger,
  });
  // What GET /metrics reads when scraped; the listeners and the live stream are added as they start.
  Object.assign(metrics.sources, {
    intake: () => ({ ...data.intake.counters(), refused: data.stat.refused() }),
    eventLog: () => eventLog.counters(),
    checks: () => ({ ...probes.counters() }),
    incidents: () => incidents.suppressionCounts(),
    database: storage.health && { backend: storage.health.backend, pool: storage.health.pool },
  });
  // Everything that follows the feed is loaded and subscribed: read what the others changed since the mark.
  await feed.start();
  return {
    cluster, lockout, feed, securityLog, users, auth, catalog, bus, liveBus, levels, incidents, dependencies, dependencySuppressor, triggers, notifications, data, eventLog, events, annotations, maintenance, presets, reports, checks, probes, agents, docs, metrics, provisioning,
    /**
     * Stops what the services run, newest first (agents' watch, the intake's checkpoint, the
     * engine, trigger waits and sends, incidents), writes what the logs hold; each once.
     */
    shutdown: () => started.stopAll(),
  };
}

export type Services = Awaited<ReturnType<typeof createServices>>;
