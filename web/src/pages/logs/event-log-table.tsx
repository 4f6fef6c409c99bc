// The records of one event log page: time, type, agent, entity and a one-line payload summary
// that opens into the whole payload as JSON.
import { Link } from 'wouter';
import { formatTime } from '../../components/format';
import { DataTable, type Column } from '../../components/data-table';
import type { EventRecord } from './event-log-query';

const TYPE_NAMES: Record<string, string> = { 'snmp-trap': 'SNMP trap', 'mqtt-message': 'MQTT message' };

function shorten(text: string, max = 140): string {
  return text.length > max ? text.slice(0, max - 1) + '…' : text;
}

/** What an operator scans a list for: the trap OID and sender, or the topic and message. */
export function payloadSummary(r: EventRecord): string {
  const p = r.payload;
  if (r.type === 'mqtt-message') {
    const m = p.message;
    const body = typeof m === 'string' ? m : JSON.stringify(m);
    return shorten(`${String(p.topic ?? '')}: ${body ?? ''}`);
  }
  if (r.type === 'snmp-trap') {
    const bindings = Array.isArray(p.bindings) ? p.bindings.length : 0;
    return shorten(`${String(p.trapOid ?? '?')} from ${String(p.senderAddress ?? '?')} (${bindings} binding${bindings === 1 ? '' : 's'})`);
  }
  return shorten(JSON.stringify(p));
}

function EntityCell({ entity }: { entity: EventRecord['entity'] }) {
  if (!entity) return <span className="muted">—</span>;
  // Objects have a page; links are shown by name.
  if (entity.entityType === 1) return <Link href={`/objects/${entity.entityId}`}>{entity.entityName}</Link>;
  return <span>{entity.entityName} <span className="muted">(link {entity.entityId})</span></span>;
}

const COLUMNS: Column<EventRecord>[] = [
  { key: 'time', header: 'Time', cellClassName: () => 'log-nowrap', cell: (r) => formatTime(r.timestamp) },
  { key: 'type', header: 'Type', cell: (r) => TYPE_NAMES[r.type] ?? r.type },
  { key: 'agent', header: 'Agent', cellClassName: () => 'log-break', cell: (r) => r.agentId },
  { key: 'entity', header: 'Entity', cell: (r) => <EntityCell entity={r.entity} /> },
  {
    key: 'payload',
    header: 'Payload',
    cellClassName: () => 'log-payload',
    cell: (r) => (
      <details>
        <summary>{payloadSummary(r)}</summary>
        <pre>{JSON.stringify(r.payload, null, 2)}</pre>
      </details>
    ),
  },
];

export function EventLogTable({ records }: { records: EventRecord[] }) {
  return <DataTable className="log-table" label="Event log records" columns={COLUMNS} rows={records} rowKey={(r) => r._id} labelCells />;
}
