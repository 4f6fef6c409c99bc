// The columns an incident table can show: id (also the preset's column id and, where the API
// sorts by it, the sortField), header label, whether shown by default, and how a cell reads.
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { formatTime } from '../../components/format';
import { levelColor, levelName, type Levels } from './use-levels';
import { CLEARED, type Incident, type Scope } from './types';

export interface CellContext {
  levels: Levels;
  userName: (id: string | undefined) => string;
}

export interface Column {
  id: string;
  label: string;
  visible: boolean;
  render: (i: Incident, ctx: CellContext) => ReactNode;
}

const TYPES: Record<number, string> = { 1: 'State change', 2: 'Condition', 3: 'Manual' };

function LevelBadge({ id, levels }: { id: number; levels: Levels }) {
  return (
    <span className="badge" style={{ background: levelColor(levels, id) }}>
      {levelName(levels, id)}
    </span>
  );
}

function Entity({ i }: { i: Incident }) {
  const cause = i.reason.rootCause;
  const name = cause.entityId === i.entityId ? cause.entityName : `${i.entityType === 2 ? 'link' : 'object'} ${i.entityId}`;
  return i.entityType === 1 ? <Link href={`/objects/${i.entityId}`}>{name}</Link> : <span>{name}</span>;
}

/** Why a suppressed incident notifies nobody: its maintenance window, its root cause, or by hand until a time. */
export function suppressedWhy(s: NonNullable<Incident['suppression']>): string {
  if (s.kind === 'maintenance') return `suppressed: maintenance${s.windowName ? ` “${s.windowName}”` : ''}${s.until ? ` until ${formatTime(s.until)}` : ''}`;
  if (s.kind === 'dependency') return `suppressed: depends on ${s.rootCause?.entityName ?? 'a cause in trouble'}`;
  return `suppressed by hand${s.until ? ` until ${formatTime(s.until)}` : ''}`;
}

function SuppressedWhy({ i }: { i: Incident }) {
  return i.suppression ? <span className="inc-why">({suppressedWhy(i.suppression)})</span> : null;
}

export const COLUMNS: readonly Column[] = [
  { id: 'id', label: 'ID', visible: true, render: (i) => i.id },
  {
    id: 'state',
    label: 'Level',
    visible: true,
    render: (i, { levels }) =>
      i.state === CLEARED && i.lastState !== CLEARED ? (
        <>
          <LevelBadge id={i.state} levels={levels} /> <span className="muted">was {levelName(levels, i.lastState)}</span>
        </>
      ) : (
        <LevelBadge id={i.state} levels={levels} />
      ),
  },
  { id: 'entityId', label: 'Entity', visible: true, render: (i) => <Entity i={i} /> },
  { id: 'text', label: 'Text', visible: true, render: (i) => (i.suppression ? <>{i.text} <SuppressedWhy i={i} /></> : i.text) },
  { id: 'timestamp', label: 'Raised', visible: true, render: (i) => formatTime(i.timestamp) },
  { id: 'acknowledgedBy', label: 'Acknowledged by', visible: true, render: (i, { userName }) => (i.acknowledgedBy ? userName(i.acknowledgedBy) : '—') },
  { id: 'acknowledgementTimestamp', label: 'Acknowledged at', visible: true, render: (i) => formatTime(i.acknowledgementTimestamp) },
  { id: 'clearTimestamp', label: 'Cleared at', visible: true, render: (i) => formatTime(i.clearTimestamp) },
  { id: 'count', label: 'Count', visible: false, render: (i) => i.count },
  { id: 'commentsCount', label: 'Comments', visible: true, render: (i) => i.commentsCount },
  { id: 'type', label: 'Type', visible: false, render: (i) => TYPES[i.type] ?? i.type },
  { id: 'lastState', label: 'Last level', visible: false, render: (i, { levels }) => <LevelBadge id={i.lastState} levels={levels} /> },
  { id: 'localTimestamp', label: 'Source time', visible: false, render: (i) => formatTime(i.localTimestamp) },
  { id: 'data', label: 'Data', visible: false, render: (i) => <code className="inc-data">{i.data || '—'}</code> },
];

export const COLUMN_BY_ID = new Map(COLUMNS.map((c) => [c.id, c]));

/**
 * Columns the server sorts by. Active incidents: the sortField values GET /incidents accepts
 * (see its schema); history: only `timestamp` (newest first, or `inverse`).
 */
const SORTABLE: Record<Scope, ReadonlySet<string>> = {
  active: new Set(['timestamp', 'id', 'state', 'lastState', 'type', 'entityId', 'count', 'commentsCount', 'acknowledgementTimestamp', 'clearTimestamp', 'acknowledgedBy']),
  history: new Set(['timestamp']),
};

export const isSortable = (scope: Scope, column: string) => SORTABLE[scope].has(column);
