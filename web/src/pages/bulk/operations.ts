// The operations of a bulk as the page edits them, and the `bulk` array of POST /bulk/objects
// they make (one key per operation, as the API takes them).

export type SettingKind = 'stateConditions' | 'incidentConditions' | 'stateTriggers';

export type OpDraft =
  | { key: number; kind: 'name'; value: string }
  | { key: number; kind: 'tags'; tags: string[] }
  | { key: number; kind: 'parent'; value: string }
  | { key: number; kind: 'client_data'; value: string }
  | { key: number; kind: 'property'; name: string; value: string; typeId: number }
  | { key: number; kind: SettingKind; json: string };

export type OpKind = OpDraft['kind'];

export const OP_KINDS: Array<{ kind: OpKind; label: string }> = [
  { kind: 'property', label: 'Set a property' },
  { kind: 'name', label: 'Rename' },
  { kind: 'tags', label: 'Set tags' },
  { kind: 'parent', label: 'Move to parents' },
  { kind: 'client_data', label: 'Set client data' },
  { kind: 'stateConditions', label: 'Set state conditions' },
  { kind: 'incidentConditions', label: 'Set incident conditions' },
  { kind: 'stateTriggers', label: 'Set state triggers' },
];

export const opLabel = (kind: OpKind) => OP_KINDS.find((k) => k.kind === kind)!.label;

export const SETTING_EXAMPLES: Record<SettingKind, string> = {
  stateConditions: '[{"condition": {"cpu.load1": {"_gt": "4"}}, "state": 5}]',
  incidentConditions: '[{"id": "high-load", "condition": {"cpu.load1": {"_gt": "8"}}, "clearCondition": {"cpu.load1": {"_lt": "4"}}, "text": "load high", "state": 1}]',
  stateTriggers: '[{"type": "webhook", "payload": {"url": "https://example.net/hook"}, "states": [5]}]',
};

let nextKey = 1;
export function newOp(kind: OpKind): OpDraft {
  const key = nextKey++;
  switch (kind) {
    case 'property': return { key, kind, name: '', value: '', typeId: 3 };
    case 'tags': return { key, kind, tags: [] };
    case 'name': case 'parent': case 'client_data': return { key, kind, value: '' };
    default: return { key, kind, json: '' };
  }
}

function one(op: OpDraft): Record<string, unknown> | string {
  switch (op.kind) {
    case 'name':
      return op.value.trim() === '' ? 'a new name' : { modify: { name: op.value.trim() } };
    case 'tags':
      return { modify: { tags: op.tags } };
    case 'parent': {
      const ids = op.value.split(/[\s,]+/).filter((s) => s !== '');
      return ids.length === 0 ? 'at least one parent id' : { modify: { parent_id: ids } };
    }
    case 'client_data':
      return { modify: { client_data: op.value } };
    case 'property':
      return op.name.trim() === '' ? 'a property name' : { 'properties.createOrModify': { name: op.name.trim(), value: op.value, type_id: op.typeId } };
    default: {
      let doc: unknown;
      try {
        doc = JSON.parse(op.json);
      } catch (err) {
        return `valid JSON (${(err as Error).message})`;
      }
      return { [op.kind]: doc };
    }
  }
}

/** The `bulk` array, or the first operation that is not complete, named. */
export function bulkOf(ops: OpDraft[]): { bulk: Array<Record<string, unknown>> } | { error: string } {
  const bulk: Array<Record<string, unknown>> = [];
  for (const [i, op] of ops.entries()) {
    const r = one(op);
    if (typeof r === 'string') return { error: `Operation ${i + 1} (${opLabel(op.kind)}) needs ${r}.` };
    bulk.push(r);
  }
  return bulk.length === 0 ? { error: 'Add at least one operation.' } : { bulk };
}
