// An audit record as one reader may see it. Its before and after are stored whole (the log is
// the truth of what changed); what a reader is shown of them follows the same rules as the
// records themselves: secrets masked without manage-service-properties (core/secrets), and for
// a reader with objectPermissions no record about an entity they cannot see and no id of one
// (an object's parent list is filtered, as GET /objects/:id filters it).
import { readsSecrets } from '../../core/secrets/mask.js';
import { redactRecordSecrets } from '../../core/secrets/record-secrets.js';
import type { StoredAuditRecord } from '../../storage/catalog-types.js';
import { type EntityActor, canSee } from './access.js';
import type { Catalog } from './catalog.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** True when the record is about something the actor may see (or about no entity at all). */
export function auditVisible(actor: EntityActor, catalog: Catalog, record: StoredAuditRecord): boolean {
  if (actor.visibility.all || record.entityId === null) return true;
  const entity = catalog.entity(record.entityId);
  // A deleted entity's history is for those who see everything.
  return entity !== undefined && canSee(actor, entity);
}

/** Entity ids in a stored object or link record that the actor cannot see, left out. */
function withoutHiddenIds(actor: EntityActor, resource: string, value: unknown): unknown {
  if (!isObject(value)) return value;
  const canRead = (id: unknown) => typeof id === 'string' && actor.visibility.canRead(id);
  if (resource === 'object' && Array.isArray(value.parent_id)) return { ...value, parent_id: value.parent_id.filter(canRead) };
  if (resource === 'link') {
    const out = { ...value };
    for (const end of ['source', 'target'] as const) if (end in out && !canRead(out[end])) out[end] = null;
    return out;
  }
  return value;
}

/** The record as the actor is shown it (the caller has checked auditVisible). */
export function auditView(actor: EntityActor, record: StoredAuditRecord): StoredAuditRecord {
  const secrets = readsSecrets(actor.rights);
  if (secrets && actor.visibility.all) return record;
  const shown = (value: unknown) => {
    const masked = secrets ? value : redactRecordSecrets(record.resource, value);
    return actor.visibility.all ? masked : withoutHiddenIds(actor, record.resource, masked);
  };
  return { ...record, before: shown(record.before), after: shown(record.after) };
}
