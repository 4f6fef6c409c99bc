// Remote agents: the same probes as the server's, run by `npm run agent` inside networks the
// server cannot reach. An agent registers by name with its user's API token, then checks in
// periodically: each check-in is its heartbeat and answers with the checks assigned to it (a
// check definition's `agent` field names the agent). Results come back through POST /stat.
// An agent silent for `agentDownAfterMs` is down: its objects' data turns stale at once
// (NoData, reason 15 with cause "agent down") instead of waiting for the engine's usual expiry.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { CheckLimits } from '../../core/probes/check-definition.js';
import { SECRETS_RIGHT, readsSecrets } from '../../core/secrets/mask.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.js';
import type { AgentRow, AgentsStore } from '../../storage/agent-types.js';
import { type EntityActor, canChange, requireAnyRight } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import { mayPush } from '../history/push-rights.js';
import type { CheckIndex } from '../probes/check-index.js';

export interface AgentView extends AgentRow {
  /** up: checked in within agentDownAfterMs; down: silent for longer. */
  status: 'up' | 'down';
  /** Enabled checks assigned to it. */
  checks: number;
}

export interface AssignedCheck {
  key: string;
  entityId: string;
  entityType: 1 | 2;
  propertyId: string;
  name: string;
  /** The stored definition, as written (the agent validates it with the same code). */
  definition: Record<string, unknown>;
}

export interface CheckIn {
  agent: AgentView;
  /** Changes whenever the list changes. */
  revision: string;
  checks: AssignedCheck[];
  limits: CheckLimits;
  /** How often the agent should check in (ms). */
  checkInMs: number;
}

/** The agent's user as they are now (read at every check-in), or undefined once deleted. */
export interface AgentOwner {
  /** Their rights and objectPermissions now. */
  actor: EntityActor;
  blocked: boolean;
}

const DISABLE_STATE = 9;
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export async function createAgentsService({ store, index, catalog, owner, manualState, stale, clock, logger, settings }: {
  store: AgentsStore;
  /** The user an agent belongs to, as they are now (users service). */
  owner: (userId: string) => Promise<AgentOwner | undefined>;
  index: CheckIndex;
  catalog: Catalog;
  /** An entity's manual state: a disabled one (9) is not checked, by agents either. */
  manualState: (entityId: string) => number | null;
  /** Marks entities' data stale (the engine's dataStale). */
  stale: (ids: readonly string[], detail: Record<string, unknown>) => Promise<void>;
  clock: () => number;
  logger: Logger;
  settings: { agentDownAfterMs: number; limits: CheckLimits };
}) {
  const agents = new Map<string, AgentRow>();
  const down = new Set<string>();
  for (const a of await store.all()) agents.set(a.id, a);
  // Silence is measured on the monotonic clock, so a wall-clock step does not mark every
  // agent down. A restart is no agent's fault: every agent gets a full grace period from now.
  const seenAt = new Map<string, number>();
  const startedAt = performance.now();
  const checkInMs = Math.max(1000, Math.min(10_000, Math.floor(settings.agentDownAfterMs / 3)));

  /** The checks an agent runs, on entities not disabled. */
  const assignedTo = (name: string) => index.agentChecks(name).filter((c) => manualState(c.entityId) !== DISABLE_STATE);

  function view(a: AgentRow): AgentView {
    return { ...a, status: down.has(a.id) ? 'down' : 'up', checks: assignedTo(a.name).length };
  }

  function own(actor: EntityActor, id: string): AgentRow {
    const a = agents.get(id);
    if (!a) throw notFound(`agent ${id}`);
    if (a.userId !== actor.userId && !actor.rights.has('manage-configuration')) throw new AppError('Forbidden', `agent ${id} belongs to another user`);
    return a;
  }

  async function seen(a: AgentRow, address: string, version: string): Promise<void> {
    const now = clock();
    await store.seen(a.id, now, address, version);
    Object.assign(a, { lastSeen: now, address, version });
    seenAt.set(a.id, performance.now());
    if (down.delete(a.id)) {
      logger.info({ agent: a.name }, 'remote agent is back');
    }
  }

  function watch(): void {
    const now = performance.now();
    for (const a of agents.values()) {
      if (down.has(a.id) || (seenAt.get(a.id) ?? startedAt) + settings.agentDownAfterMs > now) continue;
      down.add(a.id);
      const ids = [...new Set(assignedTo(a.name).map((c) => c.entityId))];
      logger.warn({ agent: a.name, lastSeen: a.lastSeen, objects: ids.length }, 'remote agent stopped reporting; its objects have no data');
      stale(ids, { cause: 'agent down', agentId: a.id, agentName: a.name }).catch((err: unknown) => logger.error({ err }, 'marking an agent\'s objects stale failed'));
    }
  }
  /**
   * The agent's user, when the agent may still be given checks: the answer carries the checks'
   * secrets in clear (the agent needs them to probe), so its user must be active and hold
   * manage-service-properties now, not only when the agent registered, and so must the caller
   * (an administrator checking in for it). Otherwise 403: the agent logs the refusal, is not
   * counted as seen, and its objects go stale (NoData) once it is down.
   */
  async function runsFor(actor: EntityActor, a: AgentRow): Promise<EntityActor> {
    const user = await owner(a.userId);
    if (!user) throw new AppError('Forbidden', `Forbidden: agent "${a.name}" belongs to a user who no longer exists`);
    if (user.blocked) throw new AppError('Forbidden', `Forbidden: agent "${a.name}" belongs to a blocked user`);
    if (!readsSecrets(user.actor.rights)) {
      throw new AppError('Forbidden', `Forbidden: agent "${a.name}" belongs to a user without the right "${SECRETS_RIGHT}", needed to run checks`);
    }
    if (!readsSecrets(actor.rights)) throw forbidden(SECRETS_RIGHT);
    return user.actor;
  }

  const timer = setInterval(watch, Math.min(5000, Math.max(250, Math.floor(settings.agentDownAfterMs / 4)))).unref();

  return {
    /** Every agent for manage-configuration; the caller's own ones for others. */
    list(actor: EntityActor): AgentView[] {
      const all = actor.rights.has('manage-configuration');
      return [...agents.values()].filter((a) => all || a.userId === actor.userId).map(view);
    },

    get(actor: EntityActor, id: string): AgentView {
      const a = agents.get(id);
      if (!a || (a.userId !== actor.userId && !actor.rights.has('manage-configuration'))) throw notFound(`agent ${id}`);
      return view(a);
    },

    /** Registers the caller's agent (or finds it again: registering is idempotent for its owner). */
    async register(actor: EntityActor, input: { name: string; version?: string }, address: string): Promise<{ agent: AgentView; created: boolean }> {
      // Running checks is configuring them from afar, with their secrets: the same right as
      // writing them (an agent of a user without it would be refused at every check-in).
      requireAnyRight(actor, SECRETS_RIGHT);
      if (!NAME.test(input.name)) throw badRequest('name: letters, digits, "_", "-" and "." (at most 128), starting with a letter or digit');
      const version = (input.version ?? '').slice(0, 64);
      const existing = [...agents.values()].find((a) => a.name === input.name);
      if (existing) {
        if (existing.userId !== actor.userId) throw conflict(`name: agent "${input.name}" is registered by another user`);
        await seen(existing, address, version);
        return { agent: view(existing), created: false };
      }
      const now = clock();
      const row = await store.create({ name: input.name, userId: actor.userId, version, address, created: now, lastSeen: now });
      if (!row) throw conflict(`name: agent "${input.name}" already exists`);
      agents.set(row.id, row);
      logger.info({ agent: row.name }, 'remote agent registered');
      return { agent: view(row), created: true };
    },

    /** The heartbeat: records the agent as seen and answers with its checks. */
    async checkIn(actor: EntityActor, id: string, input: { version?: string }, address: string): Promise<CheckIn> {
      const a = own(actor, id);
      const user = await runsFor(actor, a);
      await seen(a, address, (input.version ?? a.version).slice(0, 64));
      const checks: AssignedCheck[] = [];
      for (const check of assignedTo(a.name)) {
        const { entityId } = check;
        const entity = catalog.entity(entityId);
        // Only what the agent's user may push results to (also when an administrator checks in).
        if (!entity || !canChange(user, entity) || !mayPush(user, entity)) continue;
        // Effective properties: a check may be inherited from the entity's class.
        const prop = catalog.effectiveProps(entity).find((p) => p.id === check.propertyId);
        if (!prop) continue;
        checks.push({ key: check.key, entityId, entityType: entity.entityType, propertyId: check.propertyId, name: check.name, definition: JSON.parse(prop.value) as Record<string, unknown> });
      }
      checks.sort((x, y) => (x.key < y.key ? -1 : 1));
      const revision = createHash('sha1').update(checks.map((c) => c.key).join('\n')).digest('hex').slice(0, 16);
      return { agent: view(a), revision, checks, limits: settings.limits, checkInMs };
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      requireAnyRight(actor, 'manage-configuration');
      if (!agents.has(id)) throw notFound(`agent ${id}`);
      await store.delete(id);
      agents.delete(id);
      down.delete(id);
      seenAt.delete(id);
    },

    stop(): void {
      clearInterval(timer);
    },
  };
}

export type AgentsService = Awaited<ReturnType<typeof createAgentsService>>;
