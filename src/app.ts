// buildApp(deps): the Fastify instance with every route, hook and handler. It never listens;
// main.ts (and the tests) decide where.
import { eventLogRoutes } from './modules/event-log/routes.js';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Api } from './http/api-types.js';
import { registerAuthentication } from './modules/auth/authenticate.js';
import { registerCors } from './http/cors.js';
import { handleFrameworkError, registerErrorHandling } from './http/errors.js';
import { registerJsonBodyParser } from './http/json-body.js';
import { registerValidators } from './http/validators.js';
import { API_PREFIX } from './core/api-prefix.js';
import { openApiRoute, registerOpenApi } from './http/openapi.js';
import { authRoutes } from './modules/auth/routes.js';
import type { AuthService } from './modules/auth/service.js';
import { healthRoutes, type Readiness } from './modules/health/routes.js';
import { clusterRoutes } from './modules/cluster/routes.js';
import { securityLogRoutes } from './modules/security-log/routes.js';
import type { SecurityLogService } from './modules/security-log/service.js';
import { usersRoutes } from './modules/users/routes.js';
import { tokenRoutes } from './modules/users/token-routes.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import type { CatalogServices } from './modules/catalog/catalog-services.js';
import type { UsersService } from './modules/users/service.js';
import { incidentsRoutes } from './modules/incidents/routes.js';
import { dependenciesRoutes } from './modules/dependencies/routes.js';
import type { IncidentLevelsService } from './modules/incidents/levels-service.js';
import type { IncidentsService } from './modules/incidents/service.js';
import { triggersRoutes } from './modules/triggers/routes.js';
import { notificationsRoutes } from './modules/notifications/routes.js';
import { historyRoutes } from './modules/history/routes.js';
import { ingestRoutes } from './modules/ingest/routes.js';
import { entityStateRoutes } from './modules/engine/state-routes.js';
import type { Services } from './services.js';
import { liveStreamRoutes } from './modules/live/stream-routes.js';
import type { EventBus } from './modules/live/event-bus.js';
import type { TriggersService } from './modules/triggers/service.js';
import { annotationsRoutes } from './modules/annotations/routes.js';
import { maintenanceRoutes } from './modules/maintenance/routes.js';
import { presetsRoutes } from './modules/presets/routes.js';
import { probeRoutes } from './modules/probes/routes.js';
import { CheckDefinitionDoc } from './modules/probes/schemas.js';
import { SETTINGS_SCHEMAS } from './modules/entities/settings-schemas.js';
import { LIVE_EVENT_SCHEMAS } from './modules/live/live-event-schemas.js';
import { agentRoutes } from './modules/agents/routes.js';
import { uiSettingsRoutes } from './modules/ui-settings/routes.js';
import { registerWebUi } from './http/web-ui.js';
import { reportsRoutes } from './modules/reports/routes.js';
import { docsRoutes } from './modules/docs/routes.js';
import { provisioningRoutes } from './modules/provisioning/routes.js';
import { metricsRoutes, registerRequestMetrics } from './modules/metrics/routes.js';
import { requestId } from './http/request-id.js';
import { registerResponseHeaders } from './http/response-headers.js';
import { lazyChildLogger } from './http/lazy-logger.js';

export interface AppDeps {
  config: Pick<Readonly<Config>, 'http' | 'session' | 'web' | 'server' | 'baseUrl' | 'docs' | 'metrics' | 'ingest'>;
  logger: Logger;
  version: string;
  readiness: Readiness;
  users: UsersService;
  auth: AuthService;
  securityLog: SecurityLogService;
  catalog: CatalogServices;
  levels: IncidentLevelsService;
  incidents: IncidentsService;
  triggers: TriggersService;
  notifications: Services['notifications'];
  data: Services['data'];
  bus: EventBus;
  /** What the live stream shows (this node's events, and other nodes' state and incident events). */
  liveBus: EventBus;
  eventLog: Services['eventLog'];
  annotations: Services['annotations'];
  maintenance: Services['maintenance'];
  presets: Services['presets'];
  reports: Services['reports'];
  checks: Services['checks'];
  probes: Services['probes'];
  agents: Services['agents'];
  docs: Services['docs'];
  dependencies: Services['dependencies'];
  provisioning: Services['provisioning'];
  metrics: Services['metrics'];
  cluster: Services['cluster'];
}

/**
 * While closing, a connection kept alive after its last answer would hold the close until the
 * keep-alive timeout (72 s); requests in flight must still finish. So idle connections are
 * closed as they become idle, until the server is closed.
 */
function closeKeptAliveConnectionsOnClose(app: FastifyInstance): void {
  let sweep: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    sweep = setInterval(() => app.server.closeIdleConnections(), 50);
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(sweep);
    done();
  });
}

export async function buildApp(deps: AppDeps) {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    // One line per request would cost more than the request itself on the hot paths.
    logController: new LogController({ disableRequestLogging: true }),
    // A child logger per request binds its id to every line it logs (req.log, the 500 log);
    // made on the request's first line only (http/lazy-logger.ts).
    childLoggerFactory: lazyChildLogger,
    bodyLimit: deps.config.http.bodyLimit,
    trustProxy: deps.config.http.trustProxy,
    // A client's x-request-id is kept when it looks like one, else one of ours (http/request-id.ts).
    requestIdHeader: false,
    genReqId: requestId,
    // Bad percent-encoding and the like, found before routing, get the API's error body too.
    frameworkErrors: handleFrameworkError,
    routerOptions: { ignoreTrailingSlash: true },
    // A request that reaches a closing server on a connection kept alive is answered as usual
    // (the services stop only after the close): Fastify's default 503 would be an error the
    // client did not cause, in a body not of the API's shape, during every rolling restart.
    return503OnClosing: false,
  }).withTypeProvider<TypeBoxTypeProvider>();

  closeKeptAliveConnectionsOnClose(app);
  // The request id and the security headers, on every answer.
  registerResponseHeaders(app);
  registerRequestMetrics(app, deps.metrics);
  registerErrorHandling(app);
  // Before authentication: preflights carry no credentials and are answered in its hook.
  await registerCors(app, deps.config.http.cors);
  registerValidators(app);
  registerJsonBodyParser(app, deps.config.http.jsonMaxDepth);
  await registerOpenApi(app, deps.version, { CheckDefinition: CheckDefinitionDoc, ...SETTINGS_SCHEMAS, ...LIVE_EVENT_SCHEMAS });
  registerAuthentication(app, deps.auth, deps.securityLog);
  openApiRoute(app);
  metricsRoutes(app, { metrics: deps.metrics, access: deps.config.metrics });

  await app.register(
    async (api: Api) => {
      healthRoutes(api, { readiness: deps.readiness });
      clusterRoutes(api, { membership: deps.cluster });
      authRoutes(api, {
        auth: deps.auth,
        cookies: { secure: deps.config.session.secureCookies, maxAgeSeconds: Math.max(1, Math.floor(deps.config.session.absoluteTimeoutMs / 1000)) },
      });
      tokenRoutes(api, { auth: deps.auth, users: deps.users });
      usersRoutes(api, { users: deps.users });
      securityLogRoutes(api, { securityLog: deps.securityLog });
      catalogRoutes(api, deps.catalog);
      incidentsRoutes(api, { incidents: deps.incidents, levels: deps.levels, access: deps.catalog.access });
      dependenciesRoutes(api, deps.catalog, deps.dependencies);
      const live = liveStreamRoutes(api, { bus: deps.liveBus, catalog: deps.catalog, users: deps.users });
      deps.metrics.sources.liveClients = live.clients;
      historyRoutes(api, { catalog: deps.catalog, stat: deps.data.stat, history: deps.data.history, query: deps.data.query, clock: Date.now });
      ingestRoutes(api, { ingest: deps.data.ingest, access: deps.catalog.access, ...deps.config.ingest });
      entityStateRoutes(api, { catalog: deps.catalog, engine: deps.data.engine, store: deps.catalog.store });
      triggersRoutes(api, { triggers: deps.triggers, catalog: deps.catalog.catalog, access: deps.catalog.access });
      notificationsRoutes(api, { notifications: deps.notifications });
      eventLogRoutes(api, { eventLog: deps.eventLog, access: deps.catalog.access });
      annotationsRoutes(api, { annotations: deps.annotations, access: deps.catalog.access });
      maintenanceRoutes(api, { maintenance: deps.maintenance, access: deps.catalog.access });
      presetsRoutes(api, { presets: deps.presets, access: deps.catalog.access });
      reportsRoutes(api, { reports: deps.reports, access: deps.catalog.access, clock: Date.now });
      probeRoutes(api, { catalog: deps.catalog, index: deps.checks, probes: deps.probes, history: deps.data.history });
      agentRoutes(api, { agents: deps.agents, access: deps.catalog.access });
      docsRoutes(api, { docs: deps.docs, access: deps.catalog.access, maxBytes: deps.config.docs.maxBytes });
      provisioningRoutes(api, { provisioning: deps.provisioning });
      uiSettingsRoutes(api, { webAuthToken: deps.config.web.authTokenEnabled, tokenSignIn: deps.config.server.user.auth_token_enabled, version: deps.version, baseUrl: deps.config.baseUrl });
    },
    { prefix: API_PREFIX },
  );
  await registerWebUi(app, deps.config.web.distDir || undefined);
  return app;
}
