// What one object of the files should look like in the catalog: its class and parents resolved
// (to ids, or to items the same apply creates first), its properties and checks as the
// property list PATCH /objects/:id takes, and its condition documents validated by the settings
// service's own validator. Every error is added to the list with the file and path.
import { CheckDefinitionError, parseCheckDefinition } from '../../core/probes/check-definition.js';
import { AppError } from '../../errors.js';
import type { PropRow, SettingKind } from '../../storage/catalog-types.js';
import type { Catalog } from '../catalog/catalog.js';
import { propertyValueText } from '../entities/entity-input.js';
import type { PropertyRules } from '../entities/property-rules.js';
import { SERVICE_PROPERTY } from '../entities/property-types.js';
import type { SettingsService } from '../entities/settings-service.js';
import type { ObjectSpecT } from './file-schema.js';
import type { ErrorList, Located } from './load.js';

export const DOCUMENT_KINDS = ['stateConditions', 'incidentConditions', 'stateTriggers'] as const satisfies readonly SettingKind[];
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** A property as the files want it: value as stored text, type always given. */
export interface WantedProperty {
  name: string;
  value: string;
  type_id: number;
}

export interface ObjectTarget {
  discoveryId: string;
  where: string;
  name: string;
  /** The class id; or the name of a class this apply creates; null: none. */
  classRef: { id: string } | { create: string } | null;
  /** Each parent: an object that exists (id), or one this apply creates (by discovery_id). */
  parents: Array<{ id: string } | { create: string }>;
  properties: WantedProperty[];
  /** Validated documents; null: the object has none. */
  documents: Record<DocumentKind, unknown[] | null>;
  /** Incident conditions whose `state` names a level this apply creates (by index). */
  newLevelRefs: Array<{ index: number; level: string }>;
}

export interface TargetContext {
  catalog: Catalog;
  rules: PropertyRules;
  settings: SettingsService;
  /** Class names this apply creates. */
  newClasses: ReadonlySet<string>;
  /** discovery_ids described by the files. */
  described: ReadonlySet<string>;
  /** Incident level ids by name (existing), and names this apply creates. */
  levelIds: ReadonlyMap<string, string>;
  newLevels: ReadonlySet<string>;
  /** A level id that exists, standing in for a new level while its conditions are validated. */
  anyLevel: string | undefined;
}

function scalarText(v: string | number | boolean): string {
  return propertyValueText(v);
}

export function objectTarget(item: Located<ObjectSpecT>, cx: TargetContext, errors: ErrorList): ObjectTarget | undefined {
  const { spec, where } = item;
  const before = errors.messages.length;
  const fail = (path: string, message: string) => errors.add(`${where}.${path}: ${message}`);

  let classRef: ObjectTarget['classRef'] = null;
  if (spec.class !== undefined) {
    const existing = cx.catalog.classList().find((c) => c.name === spec.class);
    if (existing) classRef = { id: existing.id };
    else if (cx.newClasses.has(spec.class)) classRef = { create: spec.class };
    else fail('class', `unknown class "${spec.class}" (neither in the catalog nor in classes of these files)`);
  }

  const parents: ObjectTarget['parents'] = [];
  (spec.parents ?? []).forEach((p, i) => {
    if (p === spec.discovery_id) return fail(`parents[${i}]`, 'an object cannot be its own parent');
    if (cx.described.has(p)) {
      const id = cx.catalog.discovered(p);
      parents.push(id !== undefined ? { id } : { create: p });
    } else {
      const id = cx.catalog.discovered(p);
      if (id === undefined) fail(`parents[${i}]`, `unknown parent "${p}" (no object of these files or of the catalog has that discovery_id)`);
      else parents.push({ id });
    }
  });
  if ((spec.parents ?? []).length === 0) parents.push({ id: '1' });

  const properties: WantedProperty[] = [];
  for (const [name, p] of Object.entries(spec.properties ?? {})) {
    const plain = typeof p !== 'object';
    const type_id = plain ? 3 : p.type_id;
    if (type_id === SERVICE_PROPERTY) fail(`properties.${name}.type_id`, 'service properties (checks) go under `checks`');
    properties.push({ name, value: scalarText(plain ? p : p.value), type_id });
  }
  for (const [name, def] of Object.entries(spec.checks ?? {})) {
    if (spec.properties && name in spec.properties) fail(`checks.${name}`, `a property "${name}" is also given under properties`);
    try {
      parseCheckDefinition(def, cx.rules.limits, `${where}.checks.${name}`);
    } catch (err) {
      if (err instanceof CheckDefinitionError) errors.add(err.message);
      else throw err;
      continue;
    }
    properties.push({ name, value: propertyValueText(def as Record<string, unknown>), type_id: SERVICE_PROPERTY });
  }
  // Two checks writing the same metrics, checked as the props routes check them.
  try {
    const rows = properties.map((p, i): PropRow => ({ id: String(i), entity_id: '0', name: p.name, value: p.value, type_id: p.type_id, created: 0, updated: 0 }));
    cx.rules.validate(rows, rows, (r) => `${where}.checks.${r.name}.`);
  } catch (err) {
    if (err instanceof AppError) errors.add(err.message);
    else throw err;
  }

  const newLevelRefs: ObjectTarget['newLevelRefs'] = [];
  const documents = {} as ObjectTarget['documents'];
  for (const kind of DOCUMENT_KINDS) {
    let doc = spec[kind];
    if (doc === undefined) {
      documents[kind] = null;
      continue;
    }
    if (kind === 'incidentConditions') doc = levelsByName(doc, cx, newLevelRefs);
    try {
      // The validator names the element from the document's kind on: `incidentConditions[0].state`.
      documents[kind] = cx.settings.validate(kind, doc);
    } catch (err) {
      if (err instanceof AppError) errors.add(`${where}.${err.message}`);
      else throw err;
    }
  }
  if (errors.messages.length > before) return undefined;
  return { discoveryId: spec.discovery_id, where, name: spec.name, classRef, parents, properties, documents, newLevelRefs };
}

/** Incident conditions with `state` given as a level's name turned into its id. */
function levelsByName(doc: unknown[], cx: TargetContext, refs: ObjectTarget['newLevelRefs']): unknown[] {
  return doc.map((item, index) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item;
    const state = (item as { state?: unknown }).state;
    if (typeof state !== 'string') return item;
    const id = cx.levelIds.get(state);
    if (id !== undefined) return { ...item, state: id };
    if (cx.newLevels.has(state) && cx.anyLevel !== undefined) {
      refs.push({ index, level: state });
      return { ...item, state: cx.anyLevel };
    }
    return item;
  });
}

/** The incident conditions with the ids of levels created since the plan. */
export function withLevelIds(doc: unknown[], refs: ObjectTarget['newLevelRefs'], idOf: (name: string) => string): unknown[] {
  if (refs.length === 0) return doc;
  const out = [...doc];
  for (const { index, level } of refs) out[index] = { ...(out[index] as object), state: idOf(level) };
  return out;
}
