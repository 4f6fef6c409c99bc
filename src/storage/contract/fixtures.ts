// Records the contract cases build on, shared by several store files.
import type { NewUser, SecurityEvent } from '../types.js';

/** The root object every storage is seeded with (catalog migration). */
export const ROOT = '1';

export const newUser = (login: string, extra: Partial<NewUser> = {}): NewUser => ({
  login,
  email: `${login}@example.org`,
  status: 2,
  language: 'en',
  contacts: [],
  eventFilter: [],
  permissions: ['manage-objects'],
  objectPermissions: { include: [1, '2'] },
  activeTo: null,
  isAdmin: false,
  passwordHash: 'scrypt$x',
  ...extra,
});

export const securityEvent = (timestamp: number, login: string, eventClassId = 'LoginSuccess', userId: string | null = null): SecurityEvent => ({
  timestamp,
  userId,
  level: 'info',
  severity: '6',
  eventClassId,
  eventDescription: 'd',
  host: 'h',
  message: {
    remoteAddress: '10.0.0.1',
    login,
    message: 'm',
    connection: {
      localAddress: '127.0.0.1', localHost: 'h', localPort: 1, remoteAddress: '10.0.0.1', remoteHost: '10.0.0.1',
      request: { request: 'GET / HTTP/1.1', hostname: 'h', userAgent: 'u' },
    },
  },
  extra: { source: 'basic', channel: 'http' },
});
