import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { createAccess } from '../catalog/access.js';
import { EventLogQuerySchema, EventRecordSchema } from './schemas.js';
import type { EventTypeCode } from '../../storage/event-log-types.js';
import { EVENT_TYPES, SORT_FIELDS, type EventLogService } from './service.js';

/** How long a read waits at most for records queued before it to be written. */
const READ_FLUSH_WAIT_MS = 5;

/** The `type` parameter: the number of the base document, or the record's type name. */
const TYPE_CODES: Record<string, EventTypeCode> = { '1': 1, '2': 2, ...EVENT_TYPES };

export function eventLogRoutes(api: Api, deps: { eventLog: EventLogService; access: ReturnType<typeof createAccess> }): void {
  api.get('/event-log', {
    schema: {
      tags: ['event log'],
      summary: 'SNMP traps and MQTT messages received, oldest first by default',
      description: 'A user whose object access is restricted sees only records of entities they can see (and no unattributed ones).',
      querystring: EventLogQuerySchema,
      response: { 200: Type.Array(EventRecordSchema) },
    },
  }, async (req) => {
    const q = req.query;
    // Records still queued were received before this request, and usually make it into its
    // answer: after a quiet spell the writer writes a record at once (a few ms on SQLite, a round
    // trip on PostgreSQL). Best effort, not a promise: under intake the writer gathers records
    // for up to 25 ms between commits, and waiting for its backlog made a client polling the
    // newest page every 50 ms wait 50-200 ms on each poll (issue 23); such a client gets what is
    // stored, and the rest on its next poll. (A QoS 1 MQTT message is stored before its PUBACK.)
    await deps.eventLog.flush(READ_FLUSH_WAIT_MS);
    return deps.eventLog.query(deps.access.actorOf(principalOf(req)), {
      from: q.from,
      to: q.to,
      type: q.type === undefined ? undefined : TYPE_CODES[q.type],
      filter: q.filter,
      sortField: SORT_FIELDS[q.sortField ?? 'timestamp']!,
      descending: q.sortDirection === 'desc',
      inverse: q.inverse ?? false,
      limit: q.limit ?? 100,
      skip: q.skip ?? 0,
    });
  });
}
