// read config → open storage → build app → start listeners; and the way back on SIGTERM/SIGINT.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import type { Readiness } from './modules/health/routes.js';
import { createServices } from './services.js';
import { cachedDatabaseCheck } from './modules/health/database-check.js';
import { startListeners } from './listeners.js';
import { isMainModule } from './main-module.js';
import { securePrivateDir } from './storage/data-dir.js';
import { openStorage } from './storage/open-storage.js';
import { packageVersion } from './version.js';
import { clusterAddress } from './modules/cluster/address.js';

const HOUR = 3_600_000;
/** A node not heard from for a day is forgotten (one that comes back registers again). */
const DEAD_NODES_KEPT_MS = 24 * HOUR;
export const INITIAL_PASSWORD_FILE = 'initial-admin-password.txt';

const STOP_TIMEOUT_MS = 15_000;

function createLogger(config: Readonly<Config>): Logger {
  return pino({ level: config.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password'] });
}

export interface RunningServer {
  /** Base URL of the HTTP listener, e.g. http://127.0.0.1:8080 */
  url: string;
  port: number;
  /** Bound MQTT and SNMP trap ports, when those listeners are enabled. */
  mqttPort?: number;
  snmpTrapPort?: number;
  stop(): Promise<void>;
}

export interface StartOptions {
  logger?: Logger;
  /** Where first-start messages (URL, admin password) go; the console by default. */
  print?: (line: string) => void;
  /** The services' clock (Date.now by default); tests move time with their own. */
  clock?: () => number;
}

export async function startServer(config: Readonly<Config>, options: StartOptions = {}): Promise<RunningServer> {
  const logger = options.logger ?? createLogger(config);
  const print = options.print ?? ((line: string) => process.stdout.write(line + '\n'));
  const readiness: Readiness = { ready: false };

  // Before anything is written there: an older version left it readable by others.
  const tightened = securePrivateDir(config.dataDir);
  if (tightened.length > 0) logger.warn({ paths: tightened }, 'DATA_DIR was readable by other accounts: modes tightened to 0700 (directory) and 0600 (files)');
  const storage = await openStorage(config, (err) => logger.warn({ err }, 'database connection lost; the next query opens a new one'));
  // A start that fails part-way (a port already taken, say) stops whatever it started and
  // closes the storage: nothing may stay open (the event log's writer thread would keep the
  // process alive) or run on (a trigger wait sending, then writing to a closed store).
  const services = await createServices(config, storage, logger, options.clock).catch(async (err: unknown) => {
    await storage.close().catch(() => undefined);
    throw err;
  });
  let app: Awaited<ReturnType<typeof buildApp>> | undefined;
  let admin: Awaited<ReturnType<typeof services.users.ensureBootstrapAdmin>>;
  let listeners: Awaited<ReturnType<typeof startListeners>>;
  try {
    admin = await services.users.ensureBootstrapAdmin(config.adminLogin, config.adminPassword);
    // Configuration as code, before anything listens: a refused directory stops the start.
    if (services.provisioning.enabled) {
      const done = await services.provisioning.run(false);
      print(`Provisioning (${config.provisioning.dir}): ${done.changes.length === 0 ? 'nothing to change' : `${done.changes.length} changes applied`}`);
    }
    app = await buildApp({ config, logger, version: packageVersion(), readiness, ...services });
    await app.listen({ port: config.port, host: config.host });
    listeners = await startListeners(config, services, logger);
  } catch (err) {
    await app?.close().catch(() => undefined);
    await services.catalog.bulk.settle().catch(() => undefined);
    await services.shutdown().catch(() => undefined);
    await storage.close().catch(() => undefined);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const started = listeners;
  // Joins the cluster (on SQLite: the cluster of one) and, when the lease is free, leads.
  await services.cluster.start(clusterAddress(config.host, config.baseUrl, port));
  services.probes.start();
  // Started: state triggers' waits read back from storage may run (and fire) now.
  services.triggers.start();
  // Notification repeats and escalations read back from storage likewise.
  services.notifications.start();
  readiness.intakeCounters = () => ({ eventLog: services.eventLog.counters(), ...started.counters() });
  services.metrics.sources.listeners = () => started.counters();
  const { health } = storage;
  if (health) readiness.database = cachedDatabaseCheck((timeoutMs) => health.ping(timeoutMs));
  readiness.behindMs = () => services.feed.behindMs();
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = config.baseUrl ?? `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  // The purges are the cluster's work, not each node's: the leader does them.
  const maintenance = async () => {
    if (!services.cluster.isLeader()) return;
    try {
      await services.securityLog.purgeExpired();
      await services.auth.purgeExpiredSessions();
      await services.lockout?.purge();
      await services.cluster.pruneDead(DEAD_NODES_KEPT_MS);
      await services.feed.purge();
      await services.data.purge();
      await services.triggers.purge();
      await services.eventLog.purge();
    } catch (err) {
      logger.error({ err }, 'maintenance failed');
    }
  };
  await maintenance();
  const timer = setInterval(maintenance, HOUR).unref();
  readiness.ready = true;

  if (admin.generatedPassword) {
    const file = join(config.dataDir, INITIAL_PASSWORD_FILE);
    writeFileSync(file, admin.generatedPassword + '\n', { mode: 0o600 });
    print(`First start: created user "${config.adminLogin}" with password ${admin.generatedPassword}`);
    print(`(also saved in ${file}; change it and delete that file)`);
  } else if (admin.created) {
    print(`First start: created user "${config.adminLogin}" with the password from ADMIN_PASSWORD`);
  }
  // Last, so that a reader of the output knows every line before it is there.
  const intake = [
    listeners.mqttPort !== undefined ? `MQTT broker on port ${listeners.mqttPort}` : '',
    listeners.snmpTrapPort !== undefined ? `SNMP traps on UDP port ${listeners.snmpTrapPort}` : '',
  ].filter(Boolean);
  if (intake.length > 0) print(`Listening for devices: ${intake.join(', ')}`);
  print(`Vigil is running at ${url}/  (API: ${url}/node/api, OpenAPI: ${url}/node/api/openapi.json)`);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      readiness.ready = false;
      clearInterval(timer);
      await listeners.stop(); // no more traps or MQTT messages
      await services.probes.stop(); // no more check results
      // Out of the cluster at once: the other nodes take this node's checks (and the lease)
      // while it finishes what it accepted.
      await services.cluster.stop();
      services.agents.stop();
      await app.close(); // stops accepting and waits for requests in flight
      await services.catalog.bulk.settle(); // bulk jobs still running finish and are stored
      // What was accepted is checkpointed; then the engine, trigger waits and sends,
      // incidents stop, and the logs are written.
      await services.shutdown();
      await storage.close();
    })());
  return { url, port, mqttPort: listeners.mqttPort, snmpTrapPort: listeners.snmpTrapPort, stop };
}

async function main(): Promise<void> {
  let config: Readonly<Config>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`vigil: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const logger = createLogger(config);
  // Whatever the process creates (databases, the first admin password, files of libraries)
  // is private to this account; data-dir.ts also sets modes explicitly.
  process.umask(0o077);
  // Signals are watched from the start: one that arrives while starting stops the server as
  // soon as it is up.
  let stopRequested: string | undefined;
  let server: RunningServer | undefined;
  const shutdown = (signal: string) => {
    if (!server) {
      stopRequested = signal;
      return;
    }
    logger.info({ signal }, 'shutting down');
    // A request that never finishes must not keep the process alive for ever.
    setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, STOP_TIMEOUT_MS).unref();
    server.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  server = await startServer(config, { logger });
  if (stopRequested) shutdown(stopRequested);
}

// Started through a symlinked path (a release directory linked as `current`), or without the
// extension, argv[1] is not the module's real file: isMainModule resolves it (else the server
// would exit 0, silently).
if (isMainModule(import.meta.url)) {
  main().catch((err: unknown) => {
    process.stderr.write(`vigil: failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
