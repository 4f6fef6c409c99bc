// The plan: what applying the files would change, item by item (create / update / delete),
// computed from the files and the catalog, users and levels as they are now. Nothing here
// writes. Everything that can be checked before a write is checked here, so that a refused
// plan applies nothing: references, check definitions, condition documents, passwords.
import { verifyPassword } from '../../core/accounts/password.js';
import type { MemObject } from '../catalog/catalog.js';
import type { IncidentLevelsService } from '../incidents/levels-service.js';
import type { UsersService } from '../users/service.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { ClassSpecT, UserSpecT } from './file-schema.js';
import { type Desired, ErrorList } from './load.js';
import { DOCUMENT_KINDS, type ObjectTarget, objectTarget } from './object-target.js';

/** The owner of objects made by provisioning: no user has this id (user ids are numbers). */
export const PROVISIONING_OWNER = 'provisioning';
export const isProvisioned = (o: MemObject): boolean => o.owner_id === PROVISIONING_OWNER;

export type Change =
  | { kind: 'class'; action: 'create' | 'update'; key: string; id?: string; spec: ClassSpecT; details: string[] }
  | { kind: 'level'; action: 'create' | 'update'; key: string; id?: string; color: string; details: string[] }
  | { kind: 'object'; action: 'create' | 'update'; key: string; id?: string; target: ObjectTarget; details: string[] }
  | { kind: 'object'; action: 'delete'; key: string; id: string; details: string[] }
  | { kind: 'user'; action: 'create' | 'update'; key: string; id?: string; spec: UserSpecT; password: string; setPassword: boolean; details: string[] };

export interface PlanDeps {
  catalog: Pick<CatalogServices, 'catalog' | 'rules' | 'settings'>;
  levels: Pick<IncidentLevelsService, 'list'>;
  users: Pick<UsersService, 'findByLogin'>;
  /** The value of an environment variable named by a file (passwordEnv). */
  secret: (name: string) => string | undefined;
}

const show = (v: unknown) => JSON.stringify(v);

function classChanges(desired: Desired, deps: PlanDeps): Change[] {
  const out: Change[] = [];
  for (const { spec } of desired.classes) {
    const existing = deps.catalog.catalog.classList().find((c) => c.name === spec.name);
    if (!existing) {
      out.push({ kind: 'class', action: 'create', key: spec.name, spec, details: [] });
      continue;
    }
    const details: string[] = [];
    if (spec.description !== undefined && spec.description !== existing.description) details.push(`description: ${show(existing.description)} → ${show(spec.description)}`);
    if (spec.icon !== undefined && spec.icon !== existing.icon) details.push(`icon: ${show(existing.icon)} → ${show(spec.icon)}`);
    if (details.length > 0) out.push({ kind: 'class', action: 'update', key: spec.name, id: existing.id, spec, details });
  }
  return out;
}

function levelChanges(desired: Desired, deps: PlanDeps): Change[] {
  const out: Change[] = [];
  const all = deps.levels.list();
  for (const { spec } of desired.levels) {
    const existing = all.find((l) => l.name === spec.name);
    if (!existing) out.push({ kind: 'level', action: 'create', key: spec.name, color: spec.color, details: [] });
    else if (existing.ui.colors.main !== spec.color) {
      out.push({ kind: 'level', action: 'update', key: spec.name, id: existing.id, color: spec.color, details: [`color: ${show(existing.ui.colors.main)} → ${show(spec.color)}`] });
    }
  }
  return out;
}

/** How an existing object differs from its target (empty: it is as the files say). */
function objectDifferences(o: MemObject, t: ObjectTarget, deps: PlanDeps): string[] {
  const { catalog } = deps.catalog;
  const details: string[] = [];
  if (o.name !== t.name) details.push(`name: ${show(o.name)} → ${show(t.name)}`);
  const wantedClass = t.classRef === null ? null : 'id' in t.classRef ? t.classRef.id : undefined;
  if (wantedClass !== o.class_id) details.push('class: an object cannot change class (delete it, or give it a new discovery_id)');
  const parents = t.parents.map((p) => ('id' in p ? p.id : `new:${p.create}`));
  if (parents.join() !== o.parent_id.join()) details.push(`parents: ${o.parent_id.join(', ')} → ${t.parents.map((p) => ('id' in p ? p.id : p.create)).join(', ')}`);
  for (const w of t.properties) {
    const p = o.properties.find((x) => x.name === w.name);
    const label = w.type_id === 8 ? `checks.${w.name}` : `properties.${w.name}`;
    if (!p) details.push(`${label}: added`);
    else if (p.type_id !== w.type_id) details.push(`${label}: type ${p.type_id} → ${w.type_id}`);
    // A check's value may hold secrets: say that it changed, not what it holds.
    else if (p.value !== w.value) details.push(w.type_id === 8 ? `${label}: changed` : `${label}: ${show(p.value)} → ${show(w.value)}`);
  }
  for (const p of o.properties) if (!t.properties.some((w) => w.name === p.name)) details.push(`${p.type_id === 8 ? 'checks' : 'properties'}.${p.name}: removed`);
  for (const kind of DOCUMENT_KINDS) {
    const stored = catalog.setting(o.id, kind)?.value ?? null;
    const wanted = t.documents[kind];
    if (t.newLevelRefs.length > 0 && kind === 'incidentConditions') details.push(`${kind}: set (with new levels)`);
    else if (show(stored) !== show(wanted)) details.push(`${kind}: ${wanted === null ? 'removed' : stored === null ? 'set' : 'changed'}`);
  }
  return details;
}

/** A parent loop among the objects to create or move would only fail half-way through an apply. */
function findLoop(targets: ObjectTarget[], errors: ErrorList): void {
  const byId = new Map(targets.map((t) => [t.discoveryId, t]));
  const state = new Map<string, 1 | 2>();
  const visit = (t: ObjectTarget): boolean => {
    if (state.get(t.discoveryId) === 2) return false;
    if (state.get(t.discoveryId) === 1) return true;
    state.set(t.discoveryId, 1);
    for (const p of t.parents) {
      const next = 'create' in p ? byId.get(p.create) : undefined;
      if (next && visit(next)) return true;
    }
    state.set(t.discoveryId, 2);
    return false;
  };
  for (const t of targets) if (visit(t)) return errors.add(`${t.where}.parents: the parents of these files form a loop through "${t.discoveryId}"`);
}

async function userChanges(desired: Desired, deps: PlanDeps, errors: ErrorList): Promise<Change[]> {
  const out: Change[] = [];
  for (const { spec, where } of desired.users) {
    const password = deps.secret(spec.passwordEnv);
    if (password === undefined || password === '') {
      errors.add(`${where}.passwordEnv: the environment variable ${spec.passwordEnv} is not set (or empty)`);
      continue;
    }
    const existing = await deps.users.findByLogin(spec.login);
    if (!existing) {
      out.push({ kind: 'user', action: 'create', key: spec.login, spec, password, setPassword: true, details: spec.permissions ? [`permissions: ${spec.permissions.join(', ')}`] : [] });
      continue;
    }
    if (existing.isAdmin) {
      errors.add(`${where}.login: "${spec.login}" is the administrator, which provisioning does not manage`);
      continue;
    }
    const details: string[] = [];
    if (spec.email !== undefined && spec.email !== existing.email) details.push(`email: ${show(existing.email)} → ${show(spec.email)}`);
    if (spec.language !== undefined && spec.language !== existing.language) details.push(`language: ${show(existing.language)} → ${show(spec.language)}`);
    const wanted = [...new Set(spec.permissions ?? [])].sort();
    const had = [...existing.permissions].sort();
    if (wanted.join() !== had.join()) details.push(`permissions: ${had.join(', ') || '(none)'} → ${wanted.join(', ') || '(none)'}`);
    const setPassword = !(await verifyPassword(password, existing.passwordHash));
    if (setPassword) details.push(`password: changed (from ${spec.passwordEnv})`);
    if (details.length > 0) out.push({ kind: 'user', action: 'update', key: spec.login, id: existing.id, spec, password, setPassword, details });
  }
  return out;
}

/**
 * The changes, in the order they are applied; throws (400, every error, those loading found
 * too) when the files are refused.
 */
export async function planChanges(desired: Desired, deps: PlanDeps, errors = new ErrorList()): Promise<Change[]> {
  const { catalog } = deps.catalog;
  const levels = deps.levels.list();
  const described = new Set(desired.objects.map((o) => o.spec.discovery_id));
  const targets: ObjectTarget[] = [];
  const planned = new Set<string>();
  for (const item of desired.objects) {
    // A discovery_id given twice is already an error (load.ts): plan the first only.
    if (planned.has(item.spec.discovery_id)) continue;
    planned.add(item.spec.discovery_id);
    const t = objectTarget(item, {
      catalog, rules: deps.catalog.rules, settings: deps.catalog.settings,
      newClasses: new Set(desired.classes.map((c) => c.spec.name)),
      described,
      levelIds: new Map(levels.map((l) => [l.name, l.id])),
      newLevels: new Set(desired.levels.map((l) => l.spec.name).filter((n) => !levels.some((l) => l.name === n))),
      anyLevel: levels[0]?.id,
    }, errors);
    if (t) targets.push(t);
  }
  findLoop(targets, errors);

  const objects: Change[] = [];
  for (const t of targets) {
    const id = catalog.discovered(t.discoveryId);
    const o = id === undefined ? undefined : catalog.object(id);
    if (!o) {
      const what = [t.classRef && `class ${'id' in t.classRef ? catalog.classById(t.classRef.id)?.name : t.classRef.create}`,
        t.properties.length > 0 && `${t.properties.length} properties and checks`,
        ...DOCUMENT_KINDS.filter((k) => t.documents[k] !== null)].filter(Boolean) as string[];
      objects.push({ kind: 'object', action: 'create', key: t.discoveryId, target: t, details: [`name ${show(t.name)}`, ...what] });
      continue;
    }
    const details = objectDifferences(o, t, deps);
    if (details.some((d) => d.startsWith('class:'))) errors.add(`${t.where}.class: object ${o.id} ("${t.discoveryId}") is of class ${o.class_id ?? 'none'}; an object cannot change class (delete it, or give it a new discovery_id)`);
    if (details.length > 0) objects.push({ kind: 'object', action: 'update', key: t.discoveryId, id: o.id, target: t, details: isProvisioned(o) ? details : [...details, 'made by hand: never removed by provisioning'] });
  }

  // Removed from the files: only objects provisioning made, and only if nothing made by hand
  // would go with them (a delete takes the object's descendants that have no other parent).
  const gone: MemObject[] = [];
  for (const o of catalog.allObjects()) if (isProvisioned(o) && (o.discovery_id === null || !described.has(o.discovery_id))) gone.push(o);
  const goneIds = new Set(gone.map((o) => o.id));
  for (const o of gone) {
    const cascade = catalog.cascade([o.id]);
    const kept = cascade.objects.filter((c) => !goneIds.has(c)).map((c) => catalog.object(c)!);
    const byHand = kept.find((c) => !isProvisioned(c));
    const stillWanted = kept.find((c) => c.discovery_id !== null && described.has(c.discovery_id));
    if (byHand) errors.add(`object ${o.id} ("${o.discovery_id}") is no longer in the files, but deleting it would also delete object ${byHand.id} ("${byHand.name}"), made by hand; give that one another parent first`);
    else if (stillWanted) errors.add(`object ${o.id} ("${o.discovery_id}") is no longer in the files, but deleting it would also delete "${stillWanted.discovery_id}", which the files still describe; give that one another parent in the files`);
    const links = cascade.links.length;
    objects.push({ kind: 'object', action: 'delete', key: o.discovery_id ?? `#${o.id}`, id: o.id, details: [`name ${show(o.name)}`, ...(links > 0 ? [`with ${links} links`] : [])] });
  }
  const users = await userChanges(desired, deps, errors);
  errors.throwIfAny();
  return [...classChanges(desired, deps), ...levelChanges(desired, deps), ...objects, ...users];
}

/** One readable line per change: `update object web-1: name: "a" → "b"; checks.http: changed`. */
export function describe(change: Change): string {
  return `${change.action} ${change.kind} ${change.key}${change.details.length > 0 ? `: ${change.details.join('; ')}` : ''}`;
}
