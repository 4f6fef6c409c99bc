// Carries out a plan through the services (classes, incident levels, objects, properties,
// settings, users), so their rules, the audit log and the in-memory catalog stay right. The
// actor is provisioning itself: every right, every object, and the owner id that marks what it
// made (plan.ts). Order: classes and levels, then objects parents first, then removals, users.
import { RIGHTS } from '../../core/accounts/rights.js';
import { SEE_ALL } from '../../core/visibility.js';
import type { EntityActor } from '../catalog/access.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { IncidentLevelsService } from '../incidents/levels-service.js';
import type { UsersService } from '../users/service.js';
import { type Change, PROVISIONING_OWNER } from './plan.js';
import { DOCUMENT_KINDS, type ObjectTarget, withLevelIds } from './object-target.js';

export const PROVISIONING_ACTOR: EntityActor = { userId: PROVISIONING_OWNER, rights: new Set(RIGHTS), visibility: SEE_ALL };

export interface ApplyDeps {
  catalog: Pick<CatalogServices, 'catalog' | 'classes' | 'objects' | 'settings'>;
  levels: Pick<IncidentLevelsService, 'list' | 'create' | 'update'>;
  users: Pick<UsersService, 'create' | 'update'>;
}

type ObjectChange = Extract<Change, { kind: 'object'; action: 'create' | 'update' }>;

export async function applyChanges(changes: Change[], deps: ApplyDeps): Promise<void> {
  const { catalog, classes, objects, settings } = deps.catalog;
  const actor = PROVISIONING_ACTOR;
  const classId = (name: string) => catalog.classList().find((c) => c.name === name)!.id;
  const levelId = (name: string) => deps.levels.list().find((l) => l.name === name)!.id;
  const objectId = (discoveryId: string) => catalog.discovered(discoveryId)!;

  for (const c of changes) {
    if (c.kind === 'class' && c.action === 'create') await classes.create(actor, c.spec);
    else if (c.kind === 'class') await classes.update(actor, c.id!, { description: c.spec.description, icon: c.spec.icon });
    else if (c.kind === 'level' && c.action === 'create') await deps.levels.create({ name: c.key, ui: { colors: { main: c.color } } });
    else if (c.kind === 'level') await deps.levels.update(c.id!, { ui: { colors: { main: c.color } } });
  }

  const parentIds = (t: ObjectTarget) => t.parents.map((p) => ('id' in p ? p.id : objectId(p.create)));
  const documents = async (id: string, t: ObjectTarget) => {
    for (const kind of DOCUMENT_KINDS) {
      const entity = catalog.entity(id)!;
      let doc = t.documents[kind];
      if (doc !== null && kind === 'incidentConditions') doc = withLevelIds(doc, t.newLevelRefs, levelId);
      if (doc === null) {
        if (catalog.setting(id, kind)) await settings.delete(actor, entity, kind);
      } else await settings.put(actor, entity, kind, doc);
    }
  };

  // Parents first: an object waits until every parent it names has been created.
  let pending = changes.filter((c): c is ObjectChange => c.kind === 'object' && c.action !== 'delete');
  while (pending.length > 0) {
    const ready = pending.filter((c) => c.target.parents.every((p) => 'id' in p || catalog.discovered(p.create) !== undefined));
    // plan.ts refuses parent loops, so this only guards against a bug looping for ever.
    if (ready.length === 0) throw new Error(`provisioning: no order creates ${pending.map((c) => c.key).join(', ')}`);
    for (const c of ready) {
      const t = c.target;
      const properties = t.properties.map((p) => ({ name: p.name, value: p.type_id === 8 ? (JSON.parse(p.value) as Record<string, unknown>) : p.value, type_id: p.type_id }));
      let id: string;
      if (c.action === 'create') {
        const classRef = t.classRef === null ? null : 'id' in t.classRef ? t.classRef.id : classId(t.classRef.create);
        ({ object: { id } } = await objects.create(actor, { name: t.name, class_id: classRef, parent_id: parentIds(t), discovery_id: t.discoveryId, properties }));
      } else {
        id = c.id!;
        await objects.update(actor, id, { name: t.name, parent_id: parentIds(t), properties });
      }
      await documents(id, t);
    }
    pending = pending.filter((c) => !ready.includes(c));
  }

  for (const c of changes) {
    // An object may already be gone with an ancestor removed before it.
    if (c.kind === 'object' && c.action === 'delete' && catalog.hasObject(c.id)) await objects.delete(actor, c.id);
  }

  const userActor = { userId: PROVISIONING_OWNER, rights: new Set<string>(['manage-users']), method: 'basic' as const };
  for (const c of changes) {
    if (c.kind !== 'user') continue;
    const { login, email, language, permissions } = c.spec;
    if (c.action === 'create') await deps.users.create({ login, email, language, permissions, password: c.password });
    else {
      await deps.users.update(c.id!, {
        email, language, permissions: permissions ?? [],
        ...(c.setPassword ? { password: c.password } : {}),
      }, userActor);
    }
  }
}
