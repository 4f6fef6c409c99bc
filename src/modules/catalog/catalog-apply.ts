// Stored catalog writes taken into the catalog's memory: after its own commit (Catalog.mutate)
// or as another node's change read from the change feed (Catalog.applyRemote). One place for
// both, so a write means the same in memory whichever node made it.
import type { EntityGraph } from '../../core/entity-graph.js';
import type { CatalogWrite, ClassRow, SettingKind, SettingRow, StateRow, TagRow } from '../../storage/catalog-types.js';
import type { ClassTemplates } from './class-templates.js';
import type { UsesIndex } from './uses-index.js';
import { memLink, memObject, type MemEntity, type MemLink, type MemObject } from './mem-entity.js';

/** The catalog's maps and indexes, as Catalog holds them. */
export interface CatalogMemory {
  graph: EntityGraph;
  objects: Map<string, MemObject>;
  links: Map<string, MemLink>;
  settings: Map<string, Map<SettingKind, SettingRow>>;
  tags: Map<string, TagRow>;
  classes: Map<string, ClassRow>;
  states: Map<number, StateRow>;
  templates: ClassTemplates;
  discovery: Map<string, string>;
  uses: UsesIndex;
  entity(id: string): MemEntity | undefined;
  usesOfTag(tagId: string): MemEntity[];
}

/** An entity's own settings, made on first use when `create`. */
export function settingsOf(settings: CatalogMemory['settings'], entityId: string, create: boolean): Map<SettingKind, SettingRow> | undefined {
  let map = settings.get(entityId);
  if (!map && create) settings.set(entityId, (map = new Map()));
  return map;
}

/** Applies stored writes to memory; answers the ids of deleted entities and of those whose class changed. */
export function applyWrites(mem: CatalogMemory, writes: readonly CatalogWrite[]): { deleted: string[]; classMoved: string[] } {
  const deleted: string[] = [];
  const classMoved: string[] = [];
  for (const w of writes) {
    switch (w.op) {
      case 'putObject': {
        const old = mem.objects.get(w.row.id);
        if (old && old.class_id !== w.row.class_id) classMoved.push(w.row.id);
        mem.objects.set(w.row.id, memObject(w.row, old?.properties ?? []));
        mem.uses.update(old, w.row);
        if (!old) mem.graph.addObject(w.row.id, w.row.parent_id);
        else if (w.parents ?? true) mem.graph.setParents(w.row.id, w.row.parent_id);
        if (old?.discovery_id != null && old.discovery_id !== w.row.discovery_id) mem.discovery.delete(old.discovery_id);
        if (w.row.discovery_id !== null) mem.discovery.set(w.row.discovery_id, w.row.id);
        break;
      }
      case 'putLink': {
        const old = mem.links.get(w.row.id);
        if (old && old.class_id !== w.row.class_id) classMoved.push(w.row.id);
        mem.links.set(w.row.id, memLink(w.row, old?.properties ?? []));
        mem.uses.update(old, w.row);
        if (!old) mem.graph.addLink(w.row.id, w.row.source, w.row.target);
        else if (old.source !== w.row.source || old.target !== w.row.target) mem.graph.setLinkEnds(w.row.id, w.row.source, w.row.target);
        break;
      }
      case 'deleteEntities':
        for (const id of w.ids) forget(mem, id);
        deleted.push(...w.ids);
        break;
      case 'putProp': {
        const list = mem.entity(w.row.entity_id)?.properties;
        if (list) {
          const at = list.findIndex((p) => p.id === w.row.id);
          if (at >= 0) list[at] = w.row;
          else list.push(w.row);
        }
        break;
      }
      case 'deleteProp': {
        const owner = mem.entity(w.entityId);
        if (owner) owner.properties = owner.properties.filter((p) => p.id !== w.id);
        break;
      }
      case 'putSetting':
        settingsOf(mem.settings, w.row.entity_id, true)!.set(w.row.kind, w.row);
        break;
      case 'deleteSetting':
        settingsOf(mem.settings, w.entityId, false)?.delete(w.kind);
        break;
      case 'putTag':
        mem.tags.set(w.row.id, w.row);
        break;
      case 'deleteTag':
        mem.tags.delete(w.id);
        // The store cascades; here every entity carrying the tag loses it.
        for (const e of mem.usesOfTag(w.id)) {
          const map = (e.entityType === 1 ? mem.objects : mem.links) as Map<string, MemEntity>;
          map.set(e.id, { ...e, tags: e.tags.filter((t) => t !== w.id) } as MemEntity);
        }
        mem.uses.dropTag(w.id);
        break;
      case 'putClass':
        mem.classes.set(w.row.id, w.row);
        break;
      case 'deleteClass':
        mem.classes.delete(w.id);
        // The store cascades to the class's templates.
        mem.templates.dropClass(w.id);
        break;
      case 'putClassSetting':
        mem.templates.putSetting(w.row);
        break;
      case 'deleteClassSetting':
        mem.templates.deleteSetting(w.classId, w.kind);
        break;
      case 'putClassProp':
        mem.templates.putProp(w.row);
        break;
      case 'deleteClassProp':
        mem.templates.deleteProp(w.classId, w.id);
        break;
      case 'putState':
        mem.states.set(w.row.id, w.row);
        break;
      case 'setStates':
        for (const c of w.changes) {
          const o = mem.objects.get(c.entityId);
          if (o) mem.objects.set(o.id, { ...o, state_id: c.stateId });
          const l = o ? undefined : mem.links.get(c.entityId);
          if (l) mem.links.set(l.id, { ...l, state_id: c.stateId });
        }
        break;
      case 'audit':
        break;
    }
  }
  return { deleted, classMoved };
}

/** Drops one deleted entity from memory; surviving children lose it as a parent. */
function forget(mem: CatalogMemory, id: string): void {
  mem.uses.update(mem.entity(id), undefined);
  const object = mem.objects.get(id);
  if (object) {
    for (const child of mem.graph.childrenOf(id)) {
      const row = mem.objects.get(child);
      if (row) mem.objects.set(child, { ...row, parent_id: row.parent_id.filter((p) => p !== id) });
    }
    mem.graph.removeObject(id);
    mem.objects.delete(id);
    if (object.discovery_id !== null) mem.discovery.delete(object.discovery_id);
  } else if (mem.links.has(id)) {
    mem.graph.removeLink(id);
    mem.links.delete(id);
  }
  mem.settings.delete(id);
}
