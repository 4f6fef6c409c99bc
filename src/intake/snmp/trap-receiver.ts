// The SNMP trap receiver: net-snmp's notification receiver on one UDP port, taking v1 and v2c
// traps with a configured community, v3 traps and informs from configured users (informs are
// acknowledged by net-snmp), and handing each one to the event intake as an `snmp-trap`
// record about the object whose `ip` (or `host`) is the sender's address.
//
// Whatever arrives, the socket keeps serving: every datagram is counted by what became of it,
// faults are logged at most once per kind every 10 s, and nothing is thrown out of a handler.
import { getCiphers } from 'node:crypto';
import { hostname } from 'node:os';
import { isIPv6 } from 'node:net';
import type { RemoteInfo } from 'node:dgram';
import snmp from 'net-snmp';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { plainAddress, trapPayload, type RawNotification } from '../../core/events/trap-payload.js';
import type { EventIntake } from '../event-intake.js';
import { guardedDgram } from './guarded-dgram.js';
import { decodeV2cTrap } from './v2c-trap-decoder.js';
import { createLogThrottle } from '../log-throttle.js';

export interface TrapReceiverOptions {
  port: number;
  host: string;
  settings: Config['snmp'];
  events: EventIntake;
  logger: Logger;
}

export interface TrapReceiver {
  /** The UDP port bound. */
  port: number;
  /** Received, stored, refused (bad community, unknown v3 user), malformed packets. */
  counters(): Record<string, number>;
  stop(): Promise<void>;
}

/** What became of datagrams and notifications; each refusal kind is also a log kind. */
const COUNTERS = [
  /** Datagrams that reached the socket. */
  'received',
  /** Notifications decoded and authorised, handed to the event intake. */
  'accepted',
  'informs',
  /** Records stored, and records the event log shed under overload. */
  'stored',
  'shed',
  /** Bindings left out of stored records by the payload limits. */
  'bindingsDropped',
  // Refusals:
  'malformed',
  'truncated',
  'badCommunity',
  'unknownUser',
  'authFailed',
  'unexpectedPdu',
  /** Anything else that went wrong on the way (a bug; the error is logged). */
  'failed',
  'socketErrors',
] as const;
type Counter = (typeof COUNTERS)[number];

/** Traps are not awaited by their sender: no append options. */
const NO_OPTIONS = Object.freeze({});

/** The longest wait in stop() for records still being written. */
const STOP_DRAIN_MS = 5_000;

interface NetSnmpReceiver {
  getAuthorizer(): { addCommunity(c: string): void; addUser(u: Record<string, unknown>): void };
  close(cb?: () => void): void;
}

type ConfigUser = Config['snmp']['users'][number];

/** Why a configured v3 user could never be authenticated, if so. */
function userProblem(u: ConfigUser): string | undefined {
  if (u.level !== 'noAuthNoPriv' && (!u.authProtocol || u.authKey === undefined)) return `level ${u.level} needs authProtocol and authKey`;
  if (u.level !== 'authPriv') return undefined;
  if (!u.privProtocol || u.privKey === undefined) return 'level authPriv needs privProtocol and privKey';
  // OpenSSL 3 leaves single DES out unless its legacy provider is loaded.
  if (u.privProtocol === 'des' && !getCiphers().includes('des-cbc')) return 'privProtocol des is not available in this Node.js (OpenSSL 3 without its legacy provider); use aes';
  return undefined;
}

/**
 * A configured v3 user as net-snmp's authorizer takes it. A user who could never be
 * authenticated stops the start with the reason, rather than every trap of theirs failing.
 */
export function netSnmpUser(u: ConfigUser): Record<string, unknown> {
  const problem = userProblem(u);
  if (problem) throw new Error(`snmp.users "${u.name}": ${problem}`);
  return {
    name: u.name,
    level: snmp.SecurityLevel[u.level],
    ...(u.authProtocol ? { authProtocol: snmp.AuthProtocols[u.authProtocol] } : {}),
    ...(u.authKey !== undefined ? { authKey: u.authKey } : {}),
    ...(u.privProtocol ? { privProtocol: snmp.PrivProtocols[u.privProtocol] } : {}),
    ...(u.privKey !== undefined ? { privKey: u.privKey } : {}),
  };
}

/** Which refusal a net-snmp receiver error is (net-snmp tells them apart by class and wording). */
export function refusalKind(err: { name?: unknown; message?: unknown; rinfo?: unknown }): Counter {
  const message = typeof err.message === 'string' ? err.message : '';
  switch (err.name) {
    case 'ProcessingError':
      return 'malformed';
    case 'RequestFailedError':
      if (message.startsWith('Local community not found')) return 'badCommunity';
      if (message.startsWith('Local user not found')) return 'unknownUser';
      return 'authFailed';
    case 'ResponseInvalidError':
      // Wrong digest, undecryptable PDU: the v3 keys do not match.
      return 'authFailed';
    case 'RequestInvalidError':
      return 'unexpectedPdu';
    default:
      return err.rinfo === undefined ? 'socketErrors' : 'failed';
  }
}

const LOG_MESSAGES: Partial<Record<Counter, string>> = {
  malformed: 'SNMP datagram that is not a valid SNMP message dropped',
  truncated: 'truncated SNMP datagram dropped',
  badCommunity: 'SNMP trap with an unknown community dropped',
  unknownUser: 'SNMPv3 trap from an unknown user dropped',
  authFailed: 'SNMPv3 trap failing authentication or decryption dropped',
  unexpectedPdu: 'SNMP message that is not a notification dropped',
  failed: 'handling an SNMP trap failed',
  socketErrors: 'SNMP trap socket error',
};

const from = (rinfo: RemoteInfo | undefined) => (rinfo ? { from: `${rinfo.address}:${rinfo.port}`, size: rinfo.size } : {});

export async function startTrapReceiver(options: TrapReceiverOptions): Promise<TrapReceiver> {
  const { host, settings, events, logger } = options;
  // net-snmp reads port 0 as "the default, 162": a port must be given.
  if (!Number.isInteger(options.port) || options.port < 1 || options.port > 65535) {
    throw new RangeError(`SNMP trap port must be 1..65535, not ${options.port}`);
  }
  const counts = Object.fromEntries(COUNTERS.map((c) => [c, 0])) as Record<Counter, number>;
  const warn = createLogThrottle(logger);
  const agentId = `snmp-trap@${hostname()}:${options.port}`;

  const refuse = (kind: Counter, rinfo: RemoteInfo | undefined, detail: Record<string, unknown>) => {
    counts[kind]++;
    warn(kind, { ...from(rinfo), ...detail }, LOG_MESSAGES[kind] ?? kind);
  };

  // v2c traps with a configured community are decoded here; everything else by net-snmp. A
  // community that is not well-formed UTF-16 is left to net-snmp, which compares decoded text.
  const communityBytes = settings.communities.map((c) => Buffer.from(c, 'utf8')).filter((b, i) => b.toString('utf8') === settings.communities[i]);
  const sockets = guardedDgram({
    received: () => void counts.received++,
    refused: (problem, _buf, rinfo) => refuse(problem === 'truncated' ? 'truncated' : 'malformed', rinfo, {}),
    crashed: (err, _buf, rinfo) => refuse('malformed', rinfo, { err }),
    fast(buf, rinfo) {
      const notification = decodeV2cTrap(buf, communityBytes, rinfo);
      if (!notification) return false;
      take(notification);
      return true;
    },
  });

  /** Records handed to the event intake and not yet stored or shed; stop() waits for them. */
  let inFlight = 0;
  let drained: (() => void) | undefined;
  const release = () => {
    if (--inFlight === 0) drained?.();
  };
  /** Calls of `settled` so far: take() tells whether its record was settled before a throw. */
  let settledCalls = 0;
  const settled = (stored: boolean) => {
    settledCalls++;
    counts[stored ? 'stored' : 'shed']++;
    release();
  };

  function take(notification: RawNotification): void {
    const payload = trapPayload(notification);
    counts.accepted++;
    if (payload.pduType === 'inform') counts.informs++;
    counts.bindingsDropped += payload.droppedBindings ?? 0;
    let entity: ReturnType<EventIntake['entityForAddress']>;
    try {
      entity = events.entityForAddress(payload.senderAddress);
    } catch (err) {
      refuse('failed', notification.rinfo as RemoteInfo, { err });
      return;
    }
    // acceptThen calls its callback exactly once and does not throw; if it did, that is counted
    // (and the record, unless it was settled already, no longer waited for), not fatal.
    inFlight++;
    // Only this record can be settled synchronously inside the call (others are settled by
    // their batch's write, which completes in a later turn).
    const before = settledCalls;
    try {
      events.acceptThen({ type: 'snmp-trap', agentId, timestamp: Date.now(), payload: payload as unknown as Record<string, unknown>, ...(entity ? { entity } : {}) }, NO_OPTIONS, settled);
    } catch (err) {
      if (settledCalls === before) release();
      refuse('failed', notification.rinfo as RemoteInfo, { err });
    }
  }

  let startError: ((err: Error) => void) | undefined;
  const onNotification = (error: (Error & { rinfo?: RemoteInfo; error?: unknown }) | null, notification: RawNotification | null): void => {
    try {
      if (error) {
        const kind = refusalKind(error);
        if (kind === 'socketErrors' && startError) return startError(error);
        const inner = error.error instanceof Error ? error.error.message : undefined;
        // net-snmp's message for an unknown community quotes it: a community is a password
        // (often a typo of the right one), and is not written to the log.
        refuse(kind, error.rinfo, kind === 'badCommunity' ? {} : { reason: error.message, ...(inner ? { cause: inner } : {}) });
        return;
      }
      if (notification) take(notification);
    } catch (err) {
      // A decoded PDU trapPayload does not take, or a fault of ours: counted, never thrown back
      // into net-snmp (which would report the same datagram again).
      try {
        refuse('malformed', notification?.rinfo as RemoteInfo | undefined, { err });
      } catch {
        // Nothing may leave a socket handler.
      }
    }
  };

  const users = settings.users.map(netSnmpUser);
  const receiver = snmp.createReceiver(
    {
      port: options.port,
      address: host,
      transport: isIPv6(host) ? 'udp6' : 'udp4',
      disableAuthorization: false,
      // Gives the v3 user name to the payload; the v1/v2c community it also adds is not kept.
      includeAuthentication: true,
      dgramModule: sockets.module,
    },
    onNotification,
  ) as NetSnmpReceiver;
  const authorizer = receiver.getAuthorizer();
  for (const community of settings.communities) authorizer.addCommunity(community);
  for (const user of users) authorizer.addUser(user);

  // The sockets are closed directly: net-snmp's close() asks each for its address first,
  // which throws for one that never got bound.
  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= Promise.all(
      sockets.sockets.map(
        (s) =>
          new Promise<void>((resolve) => {
            try {
              s.close(() => resolve());
            } catch {
              resolve();
            }
          }),
      ),
    ).then(() => undefined));

  const socket = sockets.sockets[0]!;
  try {
    await new Promise<void>((resolve, reject) => {
      startError = reject;
      socket.once('listening', () => resolve());
    });
  } catch (err) {
    await close();
    throw err;
  } finally {
    startError = undefined;
  }
  const port = socket.address().port;
  logger.info({ host, port, communities: settings.communities.length, users: settings.users.length }, 'SNMP trap receiver listening');

  return {
    port,
    counters: () => ({ ...counts }),
    async stop() {
      await close();
      if (inFlight === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        drained = resolve;
        timer = setTimeout(resolve, STOP_DRAIN_MS);
      });
      clearTimeout(timer);
    },
  };
}
