// Metrics read from counters the parts keep anyway (the ones GET /node/api/intake/counters and
// GET /node/api/checks/counters show), when Prometheus scrapes: nothing is counted twice and no
// hot path pays for a metric. A source not there (a listener switched off, SQLite's lack of a
// pool) simply yields no series.
import { Counter, Gauge, type Registry } from 'prom-client';

/** A counter's or gauge's series: label values and the value. */
type Series = Array<[Record<string, string>, number]>;

export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/** Narrow readers of what the parts count; each optional, filled in at assembly. */
export interface MetricSources {
  /** Event log writer: written, shed, failed, trimmed (since start) and queued (now). */
  eventLog?: () => Record<string, number>;
  /** The measurement intake (stat-intake.ts, stat-push.ts). */
  intake?: () => IntakeCounts;
  /** Check scheduler: checks, running, waiting (now); started, completed, failed, ... (since start). */
  checks?: () => Record<string, number>;
  /** Device listeners (mqtt, mqttExternal, snmpTraps): their counters; `connected` is a gauge. */
  listeners?: () => Record<string, Record<string, number>>;
  /** Open live-stream (SSE) connections. */
  liveClients?: () => number;
  /** Active incidents (not in history) and those of them suppressed (not cleared). */
  incidents?: () => { active: number; suppressed: number };
  database?: { backend: 'sqlite' | 'postgres'; pool?: () => PoolUse };
}

export interface IntakeCounts {
  /** Payloads in accepted pushes (HTTP, MQTT, probes). */
  received: number;
  /** Payloads journaled and recorded. */
  stored: number;
  /** Payloads dropped by stat rules or whose entity was deleted meanwhile. */
  dropped: number;
  /** Payloads whose journal write failed (their pushes got an error). */
  failed: number;
  /** Payloads dropped because a maintenance window of their entity does not collect data. */
  inMaintenance?: number;
  /** Metric values in the stored payloads. */
  values: number;
  /** Pushes refused before the intake (access, shape, timestamp). */
  refused: number;
  /** Payloads waiting for the next journal write. */
  queued: number;
}

const SCHEDULER_GAUGES = new Set(['checks', 'running', 'waiting']);
const INTAKE_COUNTERS = ['received', 'stored', 'dropped', 'failed'] as const;

export function registerSourceMetrics(registry: Registry, sources: MetricSources): void {
  const registers = [registry];
  /** Totals kept elsewhere, exposed as a counter: set to the total when scraped. */
  const counter = (name: string, help: string, labelNames: string[], read: () => Series) =>
    new Counter({
      name, help, labelNames, registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.inc(labels, value);
      },
    });
  const gauge = (name: string, help: string, labelNames: string[], read: () => Series) =>
    new Gauge({
      name, help, labelNames, registers,
      collect() {
        this.reset();
        for (const [labels, value] of read()) this.set(labels, value);
      },
    });

  const intake = () => sources.intake?.();
  counter('vigil_intake_payloads_total', 'Measurement payloads (POST stat, MQTT, checks) by outcome: received, stored, dropped by stat rules, failed to journal, maintenance (not collected during a window)', ['outcome'], () => {
    const c = intake();
    return c ? [...INTAKE_COUNTERS.map((k): Series[number] => [{ outcome: k }, c[k]]), [{ outcome: 'maintenance' }, c.inMaintenance ?? 0]] : [];
  });
  counter('vigil_intake_values_total', 'Metric values in the stored measurement payloads', [], () => {
    const c = intake();
    return c ? [[{}, c.values]] : [];
  });
  counter('vigil_intake_refused_pushes_total', 'Pushes of measurements refused before the intake (access, body shape, timestamp)', [], () => {
    const c = intake();
    return c ? [[{}, c.refused]] : [];
  });
  gauge('vigil_intake_queued_payloads', 'Measurement payloads waiting for the next journal write', [], () => {
    const c = intake();
    return c ? [[{}, c.queued]] : [];
  });

  counter('vigil_event_log_records_total', 'Event log records (SNMP traps, MQTT messages) by outcome: written, shed (queue full), failed, trimmed (over maxRecords)', ['outcome'], () => {
    const c = sources.eventLog?.();
    return c ? Object.entries(c).filter(([k]) => k !== 'queued').map(([k, v]) => [{ outcome: k }, v]) : [];
  });
  gauge('vigil_event_log_queued_records', 'Event log records waiting to be written', [], () => {
    const c = sources.eventLog?.();
    return c ? [[{}, c.queued ?? 0]] : [];
  });

  counter('vigil_listener_events_total', 'What the device listeners (mqtt, mqttExternal, snmpTraps) received, stored, refused or shed, by counter', ['listener', 'counter'], () =>
    Object.entries(sources.listeners?.() ?? {}).flatMap(([listener, c]) =>
      Object.entries(c).filter(([k]) => k !== 'connected').map(([k, v]): Series[number] => [{ listener, counter: k }, v])),
  );
  gauge('vigil_mqtt_connected_clients', 'MQTT clients connected to the embedded broker (mqtt), or 1 while the external subscription is connected (mqttExternal)', ['listener'], () =>
    Object.entries(sources.listeners?.() ?? {}).filter(([, c]) => c.connected !== undefined).map(([listener, c]) => [{ listener }, c.connected!]),
  );

  counter('vigil_check_runs_total', 'Check (probe) runs by outcome: started, completed, failed, skipped (still running), late (waited past its interval), paused (entity disabled)', ['outcome'], () =>
    Object.entries(sources.checks?.() ?? {}).filter(([k]) => !SCHEDULER_GAUGES.has(k)).map(([k, v]) => [{ outcome: k }, v]),
  );
  gauge('vigil_checks', 'Checks scheduled, running now, and waiting for a slot', ['state'], () =>
    Object.entries(sources.checks?.() ?? {}).filter(([k]) => SCHEDULER_GAUGES.has(k)).map(([k, v]) => [{ state: k === 'checks' ? 'scheduled' : k }, v]),
  );

  gauge('vigil_live_stream_clients', 'Open live-stream (server-sent events) connections', [], () =>
    sources.liveClients ? [[{}, sources.liveClients()]] : [],
  );

  gauge('vigil_incidents', 'Incidents not yet in history (active), and those of them suppressed now (maintenance, dependency, by hand)', ['state'], () => {
    const c = sources.incidents?.();
    return c ? [[{ state: 'active' }, c.active], [{ state: 'suppressed' }, c.suppressed]] : [];
  });

  gauge('vigil_storage_info', 'The storage backend in use (1 for the one in use)', ['backend'], () =>
    sources.database ? [[{ backend: sources.database.backend }, 1]] : [],
  );
  gauge('vigil_db_pool_connections', 'PostgreSQL pool connections: total open, idle', ['state'], () => {
    const p = sources.database?.pool?.();
    return p ? [[{ state: 'total' }, p.total], [{ state: 'idle' }, p.idle]] : [];
  });
  gauge('vigil_db_pool_waiting_queries', 'Queries waiting for a PostgreSQL pool connection', [], () => {
    const p = sources.database?.pool?.();
    return p ? [[{}, p.waiting]] : [];
  });
}
