// The bulk page's search builder rows and the MongoDB-style criteria they make, the same for
// the preview (POST /objects/search) and the run (POST /bulk/objects).
import { containsText } from '../../components/search-text';

export type SearchField = 'name' | 'tag' | 'property' | 'class' | 'state' | 'parent' | 'id';

export interface Condition {
  key: number;
  field: SearchField;
  op: string;
  value: string;
  /** The property's name (field "property" only). */
  prop: string;
}

export const FIELDS: Array<{ value: SearchField; label: string; ops: Array<[op: string, label: string]> }> = [
  { value: 'name', label: 'Name', ops: [['contains', 'contains'], ['not-contains', 'does not contain'], ['equals', 'is exactly'], ['regex', 'matches regex']] },
  { value: 'tag', label: 'Tag', ops: [['has', 'has tag'], ['has-not', 'has not tag']] },
  { value: 'property', label: 'Property', ops: [['equals', 'equals'], ['contains', 'contains'], ['exists', 'exists'], ['missing', 'is missing']] },
  { value: 'class', label: 'Class', ops: [['is', 'is'], ['is-not', 'is not']] },
  { value: 'state', label: 'State', ops: [['is', 'is'], ['is-not', 'is not']] },
  { value: 'parent', label: 'Parent', ops: [['child-of', 'is a child of object id']] },
  { value: 'id', label: 'Object id', ops: [['one-of', 'is one of (comma-separated)']] },
];

export const opsOf = (field: SearchField) => FIELDS.find((f) => f.value === field)!.ops;

let nextKey = 1;
export function newCondition(field: SearchField = 'name'): Condition {
  return { key: nextKey++, field, op: opsOf(field)[0]![0], value: '', prop: '' };
}

type Criterion = Record<string, unknown>;
const ids = (text: string) => text.split(/[\s,]+/).filter((s) => s !== '');

/** One row's criterion, or what is missing from it. */
export function criterionOf(c: Condition): { criterion: Criterion } | { missing: string } {
  const v = c.value.trim();
  const needsValue = !(c.field === 'property' && (c.op === 'exists' || c.op === 'missing'));
  if (c.field === 'property' && c.prop.trim() === '') return { missing: 'a property name' };
  if (needsValue && v === '') return { missing: 'a value' };
  switch (c.field) {
    case 'name':
      if (c.op === 'equals') return { criterion: { name: v } };
      if (c.op === 'regex') return { criterion: { name: { $regex: v } } };
      if (c.op === 'not-contains') return { criterion: { $nor: [{ name: containsText(v) }] } };
      return { criterion: { name: containsText(v) } };
    case 'tag':
      return { criterion: { tags: c.op === 'has-not' ? { $nin: [v] } : { $in: [v] } } };
    case 'property': {
      const name = c.prop.trim();
      if (c.op === 'exists') return { criterion: { properties: { $elemMatch: { name } } } };
      if (c.op === 'missing') return { criterion: { $nor: [{ properties: { $elemMatch: { name } } }] } };
      return { criterion: { properties: { $elemMatch: { name, value: c.op === 'contains' ? containsText(v) : v } } } };
    }
    case 'class':
      return { criterion: { class_id: c.op === 'is-not' ? { $ne: v } : v } };
    case 'state':
      return { criterion: { state_id: c.op === 'is-not' ? { $ne: Number(v) } : Number(v) } };
    case 'parent':
      return { criterion: { parent_id: v } };
    case 'id':
      return { criterion: { id: { $in: ids(v) } } };
  }
}

/** All rows as one search; the first incomplete row is named instead. */
export function criteriaOf(rows: Condition[], match: 'all' | 'any'): { search: Criterion } | { error: string } {
  const parts: Criterion[] = [];
  for (const [i, row] of rows.entries()) {
    const r = criterionOf(row);
    if ('missing' in r) return { error: `Condition ${i + 1} needs ${r.missing}.` };
    parts.push(r.criterion);
  }
  if (parts.length === 0) return { search: {} };
  if (parts.length === 1) return { search: parts[0]! };
  return { search: match === 'all' ? { $and: parts } : { $or: parts } };
}
