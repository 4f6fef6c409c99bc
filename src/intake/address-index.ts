// Which object a device is: the object whose property `ip` (or, failing that, `host`) equals
// the address a trap came from (its effective properties: its class's count where it has no
// property of that name, class templates). Kept beside the catalog and brought up to date lazily: a
// change marks its entity, and the next lookup re-reads only the marked entities.
import type { CatalogWrite } from '../storage/catalog-types.js';
import type { Catalog, MemEntity } from '../modules/catalog/catalog.js';

const KEYS = ['ip', 'host'] as const;
const RESOLVED_MAX = 50_000;
type Key = (typeof KEYS)[number];

/** The address a property value names: stored as the text given, or JSON text of a string. */
function addressOf(value: string): string | undefined {
  let v: unknown = value;
  if (value.startsWith('"')) {
    try {
      v = JSON.parse(value);
    } catch {
      // plain text that happens to start with a quote
    }
  }
  return typeof v === 'string' && v.trim() !== '' ? v.trim().toLowerCase() : undefined;
}

export function createAddressIndex(catalog: Catalog) {
  /** key → address → object ids. */
  const byAddress: Record<Key, Map<string, Set<string>>> = { ip: new Map(), host: new Map() };
  /** object id → what it is filed under, to unfile it on change. */
  const filed = new Map<string, Array<[Key, string]>>();
  const dirty = new Set<string>();

  function unfile(id: string): void {
    for (const [key, address] of filed.get(id) ?? []) {
      const ids = byAddress[key].get(address);
      ids?.delete(id);
      if (ids?.size === 0) byAddress[key].delete(address);
    }
    filed.delete(id);
  }

  function file(entity: MemEntity): void {
    if (entity.entityType !== 1) return;
    const entries: Array<[Key, string]> = [];
    for (const p of catalog.effectiveProps(entity)) {
      if (p.name !== 'ip' && p.name !== 'host') continue;
      const address = addressOf(p.value);
      if (address === undefined) continue;
      let ids = byAddress[p.name].get(address);
      if (!ids) byAddress[p.name].set(address, (ids = new Set()));
      ids.add(entity.id);
      entries.push([p.name, address]);
    }
    if (entries.length > 0) filed.set(entity.id, entries);
  }

  /** Sender address as given → the object's id (null: none), until an address changes. */
  const resolved = new Map<string, string | null>();

  function resolve(address: string): string | null {
    const wanted = address.trim().toLowerCase().replace(/^::ffff:/, '');
    for (const key of KEYS) {
      const ids = byAddress[key].get(wanted);
      if (!ids || ids.size === 0) continue;
      let best: string | undefined;
      for (const id of ids) if (best === undefined || Number(id) < Number(best)) best = id;
      return best!;
    }
    return null;
  }

  for (const o of catalog.allObjects()) file(o);
  catalog.onChange((writes: readonly CatalogWrite[], change) => {
    for (const id of change.classMoved) dirty.add(id);
    for (const w of writes) {
      // Only writes that may change what an address names (an ip or host property, or any
      // property of an object filed by address, which covers one renamed or deleted) drop the
      // answers: other property writes during a trap storm leave the cache alone.
      if (w.op === 'putProp') {
        if (w.row.name === 'ip' || w.row.name === 'host' || filed.has(w.row.entity_id)) dirty.add(w.row.entity_id);
      } else if (w.op === 'deleteProp') {
        if (filed.has(w.entityId)) dirty.add(w.entityId);
      } else if (w.op === 'deleteEntities') {
        for (const id of w.ids) if (filed.has(id)) dirty.add(id);
      } else if (w.op === 'putObject' && w.row.class_id !== null && !filed.has(w.row.id) && catalog.classPropsOf(w.row.class_id).length > 0) {
        // A new object of a class with properties may inherit an address.
        dirty.add(w.row.id);
      } else if (w.op === 'putClassProp' || w.op === 'deleteClassProp') {
        // Rare (a class edited): every object of the class is filed again.
        for (const e of catalog.usesOfClass(w.op === 'putClassProp' ? w.row.class_id : w.classId)) dirty.add(e.id);
      }
    }
  });

  return {
    /** The matching object with the lowest id (deterministic when several share an address). */
    lookup(address: string): MemEntity | undefined {
      if (dirty.size > 0) {
        for (const id of dirty) {
          unfile(id);
          const e = catalog.entity(id);
          if (e) file(e);
        }
        dirty.clear();
        resolved.clear();
      }
      // A trap storm asks for the same few senders again and again: their answer is kept
      // until an address property changes (bounded, since any host may send).
      let id = resolved.get(address);
      if (id === undefined) {
        if (resolved.size >= RESOLVED_MAX) resolved.clear();
        resolved.set(address, (id = resolve(address)));
      }
      return id === null ? undefined : catalog.entity(id);
    },
  };
}

export type AddressIndex = ReturnType<typeof createAddressIndex>;
