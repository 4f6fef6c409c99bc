// The user form's values and how they become the API's create and change bodies.
import { fromLocalInput, toLocalInput } from '../../components/time-input';
import type { ObjectPermissions, Right, User, UserInput, UserPatch } from './admin-types';
import type { PickedObject } from './object-picker';

export interface UserFormValues {
  login: string;
  password: string;
  email: string;
  language: string;
  /** datetime-local text; empty: never expires. */
  activeTo: string;
  permissions: Right[];
  include: PickedObject[];
  exclude: PickedObject[];
}

const ROOT_ID = '1';

/** The expiry as the API takes it: null is "never expires". */
const activeToOf = (text: string): number | null => fromLocalInput(text) ?? null;

export const idsOf = (p: User['objectPermissions'] | undefined) => ({
  include: (p?.include ?? []).map(String),
  exclude: (p?.exclude ?? []).map(String),
});

/**
 * No objects chosen: no objectPermissions at all (the user sees everything their rights allow).
 * Only exclusions: the whole tree (the root) minus those subtrees.
 */
export function objectPermissionsOf(v: UserFormValues): ObjectPermissions | null {
  if (v.include.length === 0 && v.exclude.length === 0) return null;
  const include = v.include.length > 0 ? v.include.map((o) => o.id) : [ROOT_ID];
  return v.exclude.length > 0 ? { include, exclude: v.exclude.map((o) => o.id) } : { include };
}

export function emptyValues(): UserFormValues {
  return { login: '', password: '', email: '', language: '', activeTo: '', permissions: [], include: [], exclude: [] };
}

export function valuesOf(user: User): UserFormValues {
  return {
    login: user.login,
    password: '',
    email: user.email,
    language: user.language,
    activeTo: toLocalInput(user.activeTo),
    permissions: user.permissions as Right[],
    include: [],
    exclude: [],
  };
}

export function createBody(v: UserFormValues): UserInput {
  const body: UserInput = { login: v.login.trim(), password: v.password, permissions: v.permissions, activeTo: activeToOf(v.activeTo) };
  if (v.email.trim() !== '') body.email = v.email.trim();
  if (v.language.trim() !== '') body.language = v.language.trim();
  const op = objectPermissionsOf(v);
  if (op) body.objectPermissions = op;
  return body;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Only what changed, so editing yourself (email, language, password only) is not refused. */
export function patchBody(user: User, v: UserFormValues): UserPatch {
  const body: UserPatch = {};
  if (v.login.trim() !== user.login) body.login = v.login.trim();
  if (v.password !== '') body.password = v.password;
  if (v.email.trim() !== user.email) body.email = v.email.trim();
  if (v.language.trim() !== user.language) body.language = v.language.trim();
  // The input keeps whole seconds: an unchanged field must not move activeTo by its milliseconds.
  if (v.activeTo !== toLocalInput(user.activeTo)) body.activeTo = activeToOf(v.activeTo);
  if (!same([...v.permissions].sort(), [...user.permissions].sort())) body.permissions = v.permissions;
  const before = user.objectPermissions ? idsOf(user.objectPermissions) : null;
  const op = objectPermissionsOf(v);
  const after = op ? { include: op.include.map(String), exclude: (op.exclude ?? []).map(String) } : null;
  if (!same(before, after)) body.objectPermissions = op;
  return body;
}
