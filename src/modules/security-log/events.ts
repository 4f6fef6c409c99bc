// The kinds of security event and how each is classed in the record.
export const SECURITY_EVENTS = {
  'login-success': { level: 'info', severity: '6', eventClassId: 'LoginSuccess', eventDescription: 'Successful sign-in' },
  'login-failure': { level: 'warning', severity: '4', eventClassId: 'LoginFailure', eventDescription: 'Failed sign-in' },
  'login-locked': { level: 'warning', severity: '4', eventClassId: 'LoginLocked', eventDescription: 'Sign-in refused: locked after repeated failures' },
  lockout: { level: 'error', severity: '3', eventClassId: 'Lockout', eventDescription: 'Sign-in locked after repeated failures' },
  logout: { level: 'info', severity: '6', eventClassId: 'Logout', eventDescription: 'Sign-out' },
  'access-denied': { level: 'warning', severity: '4', eventClassId: 'AccessDenied', eventDescription: 'Request refused: missing right' },
} as const;

export type SecurityEventKind = keyof typeof SECURITY_EVENTS;

/** Where a request came from and what it was, as the security log records it. */
export interface ClientContext {
  remoteAddress: string;
  remoteHost: string;
  localAddress: string;
  localHost: string;
  localPort: number;
  /** The request line, with credentials in the query string masked. */
  requestLine: string;
  hostname: string;
  userAgent: string;
  /** How the client reached the server; 'http' when absent. */
  channel?: 'http' | 'mqtt';
}

/** Which sign-in method or check wrote the record. */
export type SecuritySource = 'session' | 'basic' | 'token' | 'rights';
