// Class templates: what applies to an entity of a class. The rule is one override: an
// entity's own document of a kind wins whole (even an empty one: "none here"), else its
// class's applies; an entity's own property wins over its class's of the same name, and the
// class's others are inherited. Pure, so the catalog, the views and the tests share one rule.
// (The shapes are the stores' rows, restated: core imports nothing above it.)

export interface OwnProp {
  id: string;
  entity_id: string;
  name: string;
  value: string;
  type_id: number;
  created: number;
  updated: number;
}

export type TemplateProp = Omit<OwnProp, 'entity_id'> & { class_id: string };

/** A property as it applies to an entity: its own, or one inherited from its class. */
export type EffectiveProp = OwnProp & { inherited?: true; class_id?: string };

/** The document that applies: the entity's own if it has one, else its class's. */
export function effectiveDocument<O extends { value: unknown[] }, C extends { value: unknown[] }>(own: O | undefined, ofClass: C | undefined): O | C | undefined {
  return own ?? ofClass;
}

/**
 * The entity's own properties, then its class's whose name none of its own has (each with the
 * class property's id, which is never one of the entity's: one id space). The own list itself
 * when the class has none, so entities without templates cost nothing.
 */
export function effectiveProps(entityId: string, own: readonly OwnProp[], ofClass: readonly TemplateProp[] | undefined): readonly EffectiveProp[] {
  if (!ofClass || ofClass.length === 0) return own;
  const names = new Set(own.map((p) => p.name));
  const inherited: EffectiveProp[] = [];
  for (const c of ofClass) {
    if (names.has(c.name)) continue;
    inherited.push({ id: c.id, entity_id: entityId, name: c.name, value: c.value, type_id: c.type_id, created: c.created, updated: c.updated, inherited: true, class_id: c.class_id });
  }
  return inherited.length === 0 ? own : [...own, ...inherited];
}
