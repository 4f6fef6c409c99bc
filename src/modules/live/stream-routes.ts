// GET /events/stream: Server-Sent Events of state changes, incident changes and stat updates,
// each sent only to callers who may see its entity. Events are numbered; the last ones are
// kept in a ring, so a client that reconnects with `Last-Event-ID` gets what it missed (as
// long as it is still in the ring; older gaps are announced with a `reset` event).
//
// A slow client is not allowed to make the server buffer without bound: past a high-water
// mark its stream is closed, and it reconnects with its last id.
//
// A change to the user's account reaches their open streams at once (users' onAccountChange):
// narrower rights or objectPermissions refilter the stream from the next event on, a block,
// deletion or new password ends it.
import { incidentForReader } from '../incidents/incident-for-reader.js';
import type { IncidentView } from '../incidents/incident-view.js';
import type { OutgoingHttpHeaders } from 'node:http';
import { accountChange } from '../users/account-changed.js';
import type { ServerResponse } from 'node:http';
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { AppError, badRequest } from '../../errors.js';
import type { Principal } from '../auth/service.js';
import { canSee, reasonFor, type EntityActor } from '../catalog/access.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { EventBus, LiveEvent } from './event-bus.js';
import { effectiveRights, type UsersService } from '../users/service.js';
import type { UserRecord } from '../../storage/types.js';

const RING_SIZE = 10_000;
const HEARTBEAT_MS = 15_000;
const MAX_STREAM_MS = 10 * 60_000;
const HIGH_WATER_BYTES = 4 * 1024 * 1024;
const TYPES = ['state', 'incident', 'stat'] as const;

/** A kept event; its JSON text is made the first time a client needs it (often never). */
interface Entry {
  id: number;
  event: LiveEvent;
  text?: string;
}

interface Client {
  res: ServerResponse;
  /** Replaced when the account changes (refilter); events are filtered by the current one. */
  principal: Principal;
  types: ReadonlySet<string>;
}

export function liveStreamRoutes(api: Api, { bus, catalog, users }: { bus: EventBus; catalog: CatalogServices; users: Pick<UsersService, 'getForAuth' | 'onAccountChange'> }): { clients(): number } {
  // A circular buffer: the oldest entry is overwritten, nothing is shifted.
  const ring: Entry[] = new Array(RING_SIZE);
  let ringStart = 0;
  let ringLength = 0;
  const ringAt = (i: number) => ring[(ringStart + i) % RING_SIZE]!;
  // Ids keep growing across restarts (the start time in microseconds), so an id from before a
  // restart is older than every new one and the client is told it missed events.
  let lastId = Date.now() * 1000;
  const clients = new Set<Client>();

  const visible = (actor: EntityActor, event: LiveEvent): boolean => {
    if (actor.visibility.all) return true;
    const entity = catalog.catalog.entity(event.entityId);
    return entity !== undefined && canSee(actor, entity);
  };

  function send(client: Client, entry: Entry): void {
    const { id, event } = entry;
    if (!client.types.has(event.type)) return;
    const actor = catalog.access.actorOf(client.principal);
    if (!visible(actor, event)) return;
    let text = (entry.text ??= JSON.stringify(event));
    if (event.type === 'state') {
      const reason = reasonFor(actor, catalog.catalog, event.reason);
      if (reason !== event.reason) text = JSON.stringify({ ...event, reason });
    } else if (event.type === 'incident') {
      // A cause upstream the reader may not see is not named (incident-for-reader.ts).
      const incident = incidentForReader(actor, catalog.catalog, event.incident as unknown as IncidentView);
      if (incident !== (event.incident as unknown)) text = JSON.stringify({ ...event, incident });
    }
    client.res.write(`id: ${id}\nevent: ${event.type}\ndata: ${text}\n\n`);
    if (client.res.writableLength > HIGH_WATER_BYTES) client.res.end();
  }

  bus.subscribe((event) => {
    const entry: Entry = { id: ++lastId, event };
    if (ringLength < RING_SIZE) ring[(ringStart + ringLength++) % RING_SIZE] = entry;
    else {
      ring[ringStart] = entry;
      ringStart = (ringStart + 1) % RING_SIZE;
    }
    for (const client of clients) send(client, entry);
  });

  /** Brings a client's stream in line with the user's account as stored now. */
  function follow(client: Client, now: UserRecord | undefined): void {
    const change = accountChange(client.principal.user, now, Date.now(), client.principal.method);
    if (change === 'end') {
      clients.delete(client);
      client.res.end();
    } else if (change === 'refilter') {
      client.principal = { ...client.principal, user: now!, rights: effectiveRights(now!) };
    }
  }

  const unfollow = users.onAccountChange((userId, now) => {
    for (const client of clients) if (client.principal.user.id === userId) follow(client, now);
  });
  api.addHook('onClose', (_instance, done) => {
    unfollow();
    done();
  });

  // Closing: open streams end, and a stream asked for meanwhile (on a connection kept alive, as
  // a load balancer does) is refused, since it would hold the close for MAX_STREAM_MS.
  let closing = false;
  api.addHook('preClose', (done) => {
    closing = true;
    for (const c of clients) c.res.end();
    clients.clear();
    done();
  });

  api.get('/events/stream', {
    schema: {
      tags: ['events'],
      summary: 'Live events (Server-Sent Events): state, incident and stat',
      description: 'Each event has an `id`; reconnect with the Last-Event-ID header (or lastEventId) to get the events missed since. '
        + 'The server ends a stream after 10 minutes, and at once when the account changes (rights, objectPermissions, password, blocked): reconnect. '
        + 'Event `state`: {entityId, entityType, entityName, stateId, previousStateId, reason, timestamp}; `incident`: {entityId, entityType, action, incident, timestamp}; '
        + '`stat`: {entityId, entityType, timestamp, metrics}. A `reset` event says events were missed beyond what the server keeps. Only events of entities the caller can see are sent. '
        + 'The data of each event type is the component schema LiveStateEvent, LiveIncidentEvent, LiveStatEvent or LiveResetEvent (LiveEvent: any of the first three).',
      querystring: Type.Object({
        types: Type.Optional(Type.String({ maxLength: 100, description: 'Comma-separated subset of state,incident,stat (default all)' })),
        lastEventId: Type.Optional(Type.String({ maxLength: 20 })),
      }),
    },
  }, async (req, reply) => {
    const principal = principalOf(req);
    const types = new Set(req.query.types ? req.query.types.split(',').map((t) => t.trim()) : TYPES);
    for (const t of types) if (!(TYPES as readonly string[]).includes(t)) throw badRequest(`types: unknown event type ${JSON.stringify(t)}`);
    if (closing) throw new AppError('ServiceUnavailable', 'the server is stopping: reconnect', { 'retry-after': '1' });
    const header = req.headers['last-event-id'];
    const since = Number(typeof header === 'string' ? header : req.query.lastEventId ?? Number.NaN);
    reply.hijack();
    const res = reply.raw;
    // Hijacked: what the hooks set on the reply (request id, security headers) is copied over.
    res.writeHead(200, { ...(reply.getHeaders() as OutgoingHttpHeaders), 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-accel-buffering': 'no' });
    res.write(`retry: 2000\n\n`);
    const client: Client = { res, principal, types };
    if (Number.isSafeInteger(since) && since > lastId) {
      // An id this node never gave: another node's (in a cluster each node numbers its own
      // stream). What the client missed is unknown here: it is told to read again.
      res.write(`event: reset\ndata: {"missedBefore":${lastId + 1}}\n\n`);
    } else if (Number.isSafeInteger(since) && since >= 0) {
      const oldest = ringLength > 0 ? ringAt(0).id : lastId + 1;
      if (since < oldest - 1 && since < lastId) res.write(`event: reset\ndata: {"missedBefore":${oldest}}\n\n`);
      for (let i = 0; i < ringLength; i++) {
        const r = ringAt(i);
        if (r.id > since) send(client, r);
      }
    }
    clients.add(client);
    // Each heartbeat also looks at the account again, for what no change announces (activeTo
    // passing); a stream also ends after MAX_STREAM_MS, so a session signed out elsewhere
    // cannot keep one open for ever.
    const heartbeat = setInterval(() => {
      res.write(`: keep-alive\n\n`);
      users.getForAuth(client.principal.user.id).then(
        (fresh) => follow(client, fresh),
        () => res.end(),
      );
    }, HEARTBEAT_MS);
    const lifetime = setTimeout(() => res.end(), MAX_STREAM_MS);
    const close = () => {
      clearInterval(heartbeat);
      clearTimeout(lifetime);
      clients.delete(client);
    };
    res.on('close', close);
    res.on('error', close);
  });
  // Open streams, for self-metrics (GET /metrics).
  return { clients: () => clients.size };
}
