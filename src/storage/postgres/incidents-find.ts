// The incident list query on PostgreSQL: one sort per partial index of migration 0004, keyset
// paging on (sort key, id), and the filter conditions SQLite pushes down, pushed down here too.
import type { FieldCondition, Scalar } from '../../core/filter-conditions.js';
import type { IncidentQuery, IncidentSortColumn } from '../incidents-types.js';
import { INCIDENT_SORTS } from '../rows/incident-row.js';

/**
 * The SQL of each sort, exactly as indexed (so the planner uses the index): the column, or for
 * a nullable one COALESCE to the value its null sorts as. The owner sorts in byte order
 * (COLLATE "C") as SQLite's BINARY does.
 */
const SORT_SQL: Partial<Record<IncidentSortColumn, string>> = {
  acknowledgementTimestamp: 'COALESCE(acknowledgement_timestamp, -1)',
  clearTimestamp: 'COALESCE(clear_timestamp, -1)',
  acknowledgedBy: `COALESCE(acknowledged_by, '') COLLATE "C"`,
};

type ColumnKind = 'int' | 'text' | 'json';

/**
 * Record fields the store can narrow on (as in the SQLite store). `ranges`: whether $gt.. may
 * be pushed (non-null numbers, where SQL and the JS filter order alike). The list is a
 * superset of the caller's filter: a condition SQL cannot state exactly is left out, never
 * narrowed further (PostgreSQL refuses what SQLite would convert, e.g. 'abc' for a bigint).
 */
const FILTER_COLUMNS: Record<string, { sql: string; kind: ColumnKind; ranges: boolean }> = {
  id: { sql: 'id', kind: 'int', ranges: false },
  entityId: { sql: 'entity_id', kind: 'int', ranges: false },
  entityType: { sql: 'entity_type', kind: 'int', ranges: true },
  type: { sql: 'type', kind: 'int', ranges: true },
  state: { sql: 'state', kind: 'int', ranges: true },
  lastState: { sql: 'last_state', kind: 'int', ranges: true },
  count: { sql: 'count', kind: 'int', ranges: true },
  commentsCount: { sql: 'comments_count', kind: 'int', ranges: true },
  timestamp: { sql: 'timestamp', kind: 'int', ranges: true },
  localTimestamp: { sql: 'local_timestamp', kind: 'int', ranges: false },
  acknowledgementTimestamp: { sql: 'acknowledgement_timestamp', kind: 'int', ranges: false },
  clearTimestamp: { sql: 'clear_timestamp', kind: 'int', ranges: false },
  acknowledgedBy: { sql: 'acknowledged_by', kind: 'text', ranges: false },
  text: { sql: 'text', kind: 'text', ranges: false },
  data: { sql: 'data', kind: 'text', ranges: false },
  'reason.code': { sql: "(reason -> 'code')", kind: 'json', ranges: false },
};

const SQL_OP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const ARRAY_TYPE: Record<ColumnKind, string> = { int: 'bigint[]', text: 'text[]', json: 'jsonb[]' };

/** A value as the column's parameter, or undefined when SQL cannot state the comparison exactly. */
function paramOf(kind: ColumnKind, v: Scalar): unknown {
  const b = typeof v === 'boolean' ? (v ? 1 : 0) : v; // as SQLite binds booleans
  if (kind === 'text') return String(b);
  if (kind === 'json') return JSON.stringify(v);
  const n = typeof b === 'number' ? b : /^-?[0-9]{1,15}$/.test(b) ? Number(b) : NaN;
  return Number.isSafeInteger(n) ? n : undefined;
}

function conditionClauses(conditions: FieldCondition[], where: string[], bind: (v: unknown) => string): void {
  for (const c of conditions) {
    const col = FILTER_COLUMNS[c.path.join('.')];
    if (!col) continue;
    if (c.op === 'eq') {
      const p = paramOf(col.kind, c.value as Scalar);
      if (p !== undefined) where.push(`${col.sql} = ${bind(p)}${col.kind === 'json' ? '::jsonb' : ''}`);
    } else if (c.op === 'in') {
      const list = (c.value as Scalar[]).map((v) => paramOf(col.kind, v));
      if (list.every((p) => p !== undefined)) where.push(`${col.sql} = ANY(${bind(list)}::${ARRAY_TYPE[col.kind]})`);
    } else if (col.ranges && typeof c.value === 'number' && Number.isSafeInteger(c.value)) {
      where.push(`${col.sql} ${SQL_OP[c.op]} ${bind(c.value)}`);
    }
  }
}

/** The statement text and its parameters for one page of the list. */
export function findStatement(q: IncidentQuery): { sql: string; params: unknown[] } {
  const sort = { sql: SORT_SQL[q.sort] ?? INCIDENT_SORTS[q.sort].column, value: INCIDENT_SORTS[q.sort].value };
  const dir = q.descending ? 'DESC' : 'ASC';
  const where = [q.scope === 'active' ? 'history_at IS NULL' : 'history_at IS NOT NULL'];
  const params: unknown[] = [];
  const bind = (v: unknown) => `$${params.push(v)}`;
  if (q.owner !== undefined) where.push(`COALESCE(acknowledged_by, '') = ${bind(q.owner)}`);
  if (q.from !== undefined) where.push(`timestamp >= ${bind(q.from)}`);
  if (q.to !== undefined) where.push(`timestamp <= ${bind(q.to)}`);
  if (q.conditions) conditionClauses(q.conditions, where, bind);
  if (q.after) {
    // The plain bound lets the index seek; the row value settles ties.
    const op = q.descending ? '<' : '>';
    const value = sort.value(q.after);
    where.push(`${sort.sql} ${op}= ${bind(value)}`, `(${sort.sql}, id) ${op} (${bind(value)}, ${bind(Number(q.after.id))})`);
  }
  const sql = `SELECT * FROM incidents WHERE ${where.join(' AND ')} ORDER BY ${sort.sql} ${dir}, id ${dir}
    LIMIT ${bind(q.limit)} OFFSET ${bind(q.after ? 0 : (q.skip ?? 0))}`;
  return { sql, params };
}
