// Signing in an MQTT client with the same rules as HTTP: login and password as HTTP Basic
// would carry them, or login `token` with an API token as password. Anonymous connects are
// refused and, like every refusal, land in the security log (auth.authenticate writes it).
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { AppError } from '../../errors.js';
import type { AuthService, Credentials, Principal } from '../../modules/auth/service.js';
import type { ClientContext } from '../../modules/security-log/events.js';

/** CONNACK return codes of MQTT 3.1.1 (table 3.1). */
export const CONNACK = { serverUnavailable: 3, badCredentials: 4, notAuthorized: 5 } as const;
export type RefusalCode = (typeof CONNACK)[keyof typeof CONNACK];

export interface ConnectInfo {
  clientId: string;
  username: string | undefined;
  password: Uint8Array | undefined;
  /** MQTT protocol level (3 = 3.1, 4 = 3.1.1, 5). */
  version: number;
  remoteAddress: string;
  localAddress: string;
  localPort: number;
}

export type SignIn = { principal: Principal } | { refused: RefusalCode; message: string };

/** The login `token` means: the password is an API token. */
export const TOKEN_LOGIN = 'token';

const LOCAL_HOST = hostname();

// Client ids and topics are chosen by the client: bounded and stripped of control characters
// so a security log line stays one line.
const printable = (text: string, max: number) => text.slice(0, max).replace(/[\x00-\x1f\x7f]/g, '?');

export function connectContext(c: ConnectInfo): ClientContext {
  return {
    remoteAddress: c.remoteAddress,
    remoteHost: c.remoteAddress,
    localAddress: c.localAddress,
    localHost: LOCAL_HOST,
    localPort: c.localPort,
    requestLine: `MQTT CONNECT client-id=${printable(c.clientId, 128)}`,
    hostname: '',
    userAgent: `MQTT protocol level ${c.version}`,
    channel: 'mqtt',
  };
}

/** The security log's view of a publish by a signed-in client (for a refused one). */
export function publishContext(conn: { remoteAddress?: string; localAddress?: string; localPort?: number }, clientId: string, version: number, topic: string): ClientContext {
  return {
    ...connectContext({
      clientId, username: undefined, password: undefined, version,
      remoteAddress: conn.remoteAddress ?? '', localAddress: conn.localAddress ?? '', localPort: conn.localPort ?? 0,
    }),
    requestLine: `MQTT PUBLISH topic=${printable(topic, 256)} client-id=${printable(clientId, 128)}`,
  };
}

export function credentialsOf(username: string | undefined, password: Uint8Array | undefined): Credentials {
  if (username === undefined || username === '') return { kind: 'malformed', source: 'basic', reason: 'anonymous MQTT connect' };
  const secret = password ? Buffer.from(password.buffer, password.byteOffset, password.byteLength).toString('utf8') : '';
  if (username === TOKEN_LOGIN) return { kind: 'token', token: secret };
  return { kind: 'basic', encoded: Buffer.from(`${username}:${secret}`, 'utf8').toString('base64') };
}

/**
 * Why the sign-in failed, as a CONNACK code: 4 when the login, password or token was wrong
 * (a blocked account is answered so too, by auth, so that its right password tells nothing),
 * 5 when the client may not connect whatever it sends (anonymous, locked after repeated
 * failures, tokens switched off).
 */
function refusalCode(cred: Credentials, err: AppError): RefusalCode {
  if (cred.kind === 'malformed' || err.code === 'TooManyRequests') return CONNACK.notAuthorized;
  return /disabled/.test(err.message) ? CONNACK.notAuthorized : CONNACK.badCredentials;
}

export function mqttSignIn(auth: AuthService, logger: Logger) {
  return async (c: ConnectInfo): Promise<SignIn> => {
    const cred = credentialsOf(c.username, c.password);
    const cached = auth.authenticateCached(cred, c.remoteAddress);
    if (cached) return { principal: cached };
    try {
      return { principal: await auth.authenticate(cred, connectContext(c)) };
    } catch (err) {
      if (err instanceof AppError) return { refused: refusalCode(cred, err), message: err.message };
      logger.error({ err, clientId: c.clientId }, 'MQTT sign-in failed');
      return { refused: CONNACK.serverUnavailable, message: 'server unavailable' };
    }
  };
}
