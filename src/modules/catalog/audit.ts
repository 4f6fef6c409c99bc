// Audit records of configuration changes: built beside the change, stored in the same batch.
import type { AuditRecord, AuditResource, CatalogWrite } from '../../storage/catalog-types.js';

/** The record as stored: without the in-memory marker of its kind, and null for nothing. */
function plain(value: unknown): unknown {
  if (value === undefined) return null;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const { entityType: _kind, ...rest } = value as Record<string, unknown>;
  return rest;
}

export function auditWrite(
  userId: string | null,
  action: AuditRecord['action'],
  resource: AuditResource,
  resourceId: string,
  entityId: string | null,
  before: unknown,
  after: unknown,
  timestamp: number,
): CatalogWrite {
  return { op: 'audit', record: { timestamp, userId, action, resource, resourceId, entityId, before: plain(before), after: plain(after) } };
}
