// The shape of one provisioning file (YAML or JSON). Unknown keys are refused everywhere: a
// misspelt `propertes` must fail the whole apply, not silently provision an object without them.
// Condition documents (stateConditions, incidentConditions, stateTriggers) and check
// definitions are left open here; the services' own validators check them (plan.ts).
import { Type, type Static } from 'typebox';
import { RIGHTS } from '../../core/accounts/rights.js';

const Obj = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: false });
const Name = Type.String({ minLength: 1, maxLength: 256 });
/** Bounds: one file describes a site, not a data set (and a YAML alias bomb stays small). */
const Many = { maxItems: 10_000 };

const Scalar = Type.Union([Type.String({ maxLength: 65_536 }), Type.Number(), Type.Boolean()]);
/** A plain value (a read-write property, type 3), or `{value, type_id}` for another type. */
const Property = Type.Union([Scalar, Obj({ value: Scalar, type_id: Type.Integer({ minimum: 1 }) })]);

const Document = Type.Array(Type.Unknown(), { maxItems: 1000 });

export const ClassSpec = Obj({
  name: Name,
  description: Type.Optional(Type.String({ maxLength: 4096 })),
  icon: Type.Optional(Type.String({ maxLength: 256 })),
});

export const LevelSpec = Obj({
  name: Name,
  color: Type.String({ minLength: 1, maxLength: 64 }),
});

export const ObjectSpec = Obj({
  discovery_id: Type.String({ minLength: 1, maxLength: 256 }),
  name: Name,
  /** discovery_ids of the parents (in these files or already in the catalog); absent: the root. */
  parents: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 100 })),
  /** The class by name (a built-in one or one of `classes`). */
  class: Type.Optional(Name),
  properties: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Property)),
  /** Check definitions by property name (service properties, type 8). */
  checks: Type.Optional(Type.Record(Type.String({ minLength: 1, maxLength: 256 }), Type.Record(Type.String(), Type.Unknown()))),
  stateConditions: Type.Optional(Document),
  /** `state` of each may name a level by its name as well as by its id. */
  incidentConditions: Type.Optional(Document),
  stateTriggers: Type.Optional(Document),
});

export const UserSpec = Obj({
  login: Type.String({ minLength: 1, maxLength: 128 }),
  /** The environment variable holding the password: passwords are never written in the files. */
  passwordEnv: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 128 }),
  email: Type.Optional(Type.String({ maxLength: 256 })),
  language: Type.Optional(Type.String({ maxLength: 16 })),
  permissions: Type.Optional(Type.Array(Type.Union(RIGHTS.map((r) => Type.Literal(r))), { maxItems: 100 })),
});

export const ProvisioningFile = Obj({
  classes: Type.Optional(Type.Array(ClassSpec, Many)),
  levels: Type.Optional(Type.Array(LevelSpec, Many)),
  objects: Type.Optional(Type.Array(ObjectSpec, Many)),
  users: Type.Optional(Type.Array(UserSpec, Many)),
});

export type ClassSpecT = Static<typeof ClassSpec>;
export type LevelSpecT = Static<typeof LevelSpec>;
export type ObjectSpecT = Static<typeof ObjectSpec>;
export type UserSpecT = Static<typeof UserSpec>;
export type ProvisioningFileT = Static<typeof ProvisioningFile>;
