// The named rights of this API family (api-extensions.md "Users"). Routes declare the one
// they need in their config; the bootstrap admin holds all of them. A user without rights is
// read-only: every change but to its own account and presets needs a right named here.
// `push-data` and `manage-incidents` are Vigil's own: the family names no right for sending
// measurements (device accounts that only push) or for acting on incidents.
export const RIGHTS = [
  'manage-users',
  'read-security-log',
  'manage-objects',
  'create-objects',
  'modify-objects',
  'delete-objects',
  'manage-links',
  'create-links',
  'modify-links',
  'manage-classes',
  'manage-configuration',
  'manage-history',
  'manage-properties',
  'manage-service-properties',
  'run-bulks',
  'execute-operations',
  'manage-operations',
  'entityPermissions',
  'view-section-stat',
  'view-section-monitoring',
  'view-section-history-graph',
  'push-data',
  'manage-incidents',
] as const;

export type Right = (typeof RIGHTS)[number];

/**
 * Acting on incidents (raise, acknowledge, comment, clear): `manage-incidents` for on-call
 * people who change nothing else, or the rights to modify what the incidents are about.
 */
export const INCIDENT_ACTION_RIGHTS: readonly Right[] = ['manage-incidents', 'modify-objects', 'manage-objects', 'modify-links', 'manage-links'];

const KNOWN = new Set<string>(RIGHTS);
export const isRight = (name: string): name is Right => KNOWN.has(name);
