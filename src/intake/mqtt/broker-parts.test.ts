// The broker's stateful pieces on their own: the retained budget, the in-flight counter and
// the client sessions following account changes (fake clock, fake clients).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { Principal } from '../../modules/auth/service.js';
import type { EntityActor } from '../../modules/catalog/access.js';
import type { AccountListener } from '../../modules/users/account-changed.js';
import type { UserRecord } from '../../storage/types.js';
import { ClientSessions } from './client-sessions.js';
import { InFlight } from './in-flight.js';
import { RetainedBudget } from './retained-budget.js';

describe('retained budget', () => {
  it('bounds topics and bytes, clears on an empty message, and undoes a publish not kept', () => {
    const b = new RetainedBudget(2, 100);
    assert.equal(b.allow('a', 40), true);
    assert.equal(b.allow('b', 40), true);
    assert.equal(b.allow('c', 1), false); // third topic
    assert.equal(b.allow('a', 70), false); // 70 + 40 > 100
    const before = b.before('a');
    assert.equal(b.allow('a', 60), true); // replaces a's 40
    assert.deepEqual(b.usage, { topics: 2, bytes: 100 });
    b.undo('a', before);
    assert.deepEqual(b.usage, { topics: 2, bytes: 80 });
    assert.equal(b.allow('b', 0), true); // cleared
    assert.deepEqual(b.usage, { topics: 1, bytes: 40 });
    const none = b.before('n');
    assert.equal(b.allow('n', 10), true);
    b.undo('n', none);
    assert.deepEqual(b.usage, { topics: 1, bytes: 40 });
  });
});

describe('in-flight counter', () => {
  it('settles at once when idle, else when the last hook ends', async () => {
    const f = new InFlight();
    await f.settled();
    f.begin();
    f.begin();
    let done = false;
    const p = f.settled().then(() => (done = true));
    f.end();
    await new Promise((r) => setImmediate(r));
    assert.equal(done, false);
    f.end();
    await p;
    assert.equal(done, true);
  });
});

describe('client sessions', () => {
  const user = (changes: Partial<UserRecord> = {}): UserRecord => ({
    id: 'u1', login: 'dev', email: '', status: 2, language: 'en', contacts: [], eventFilter: [], permissions: ['push-data'], objectPermissions: null,
    activeTo: null, isAdmin: false, passwordHash: 'x', tokenHash: null, authVersion: 1, created: 0, updated: 0, ...changes,
  });
  function setup(stored: () => UserRecord | undefined) {
    let now = 1000;
    let graph = 1;
    let computed = 0;
    let listener: AccountListener | undefined;
    const sessions = new ClientSessions<{ id: string; close: () => void; closed?: boolean }>({
      actorOf: (p) => {
        computed++;
        return { rights: p.rights } as unknown as EntityActor;
      },
      graphVersion: () => graph,
      clock: () => now,
      log: pino({ level: 'silent' }),
      users: {
        getForAuth: async () => stored(),
        onAccountChange: (l: AccountListener) => {
          listener = l;
          return () => (listener = undefined);
        },
      } as never,
    });
    const client = { id: 'c1', closed: false, close() { this.closed = true; } };
    const closeListeners: Array<() => void> = [];
    const principal: Principal = { user: user(), rights: new Set(['push-data']), method: 'basic' } as Principal;
    sessions.add(client, principal, true, (l) => closeListeners.push(l));
    return {
      sessions, client, closeListeners,
      advance: (ms: number) => (now += ms), moveGraph: () => graph++, computed: () => computed,
      announce: (u: UserRecord | undefined) => listener?.('u1', u), listening: () => listener !== undefined,
    };
  }

  it('recomputes the actor only when the entity tree moved', () => {
    const t = setup(() => user());
    t.sessions.actorFor(t.client);
    t.sessions.actorFor(t.client);
    assert.equal(t.computed(), 1);
    t.moveGraph();
    t.sessions.actorFor(t.client);
    assert.equal(t.computed(), 2);
  });

  it('an announced block closes the connection; narrower permissions refilter it', () => {
    const t = setup(() => user());
    t.sessions.start(1e9);
    t.announce(user({ permissions: [] }));
    assert.equal(t.client.closed, false);
    assert.equal(t.sessions.counts.accountRefiltered, 1);
    assert.equal(t.sessions.get(t.client)?.version, -1);
    t.sessions.actorFor(t.client);
    assert.equal(t.computed(), 2);
    t.announce(user({ status: 3 }));
    assert.equal(t.client.closed, true);
    assert.equal(t.sessions.counts.accountChanged, 1);
    t.sessions.stop();
    assert.equal(t.listening(), false);
  });

  it('the periodic look cuts off an account whose activeTo passed on the clock', async () => {
    const t = setup(() => user({ activeTo: 5000 }));
    await t.sessions.checkAccounts();
    assert.equal(t.client.closed, false);
    t.advance(5000);
    await t.sessions.checkAccounts();
    assert.equal(t.client.closed, true);
  });

  it('a closed connection is no longer looked at', async () => {
    let asked = 0;
    const t = setup(() => (asked++, user()));
    for (const l of t.closeListeners) l();
    await t.sessions.checkAccounts();
    assert.equal(asked, 0);
  });
});
