// The shape of one provisioning file (YAML or JSON). Unknown keys are refused everywhere: a
// misspelt `propertes` must fail the whole apply, not silently provision an object without them.
// Condition documents (stateConditions, incidentConditions, stateTriggers) and check
// definitions are left open here; the services' own validators check them (plan.ts).
// The fields the routes also take (names, colours, logins, emails, property names and values)
// use the routes' own schemas: a value the route would refuse must be refused here, before
// anything is applied, not half-way through an apply by the service (or stored when it is not).
import { Type, type Static } from 'typebox';
import { CreateObjectBody, PropertyInput } from '../entities/schemas.js';
import { LevelBody } from '../incidents/schemas.js';
import { CreateUserBody } from '../users/schemas.js';

const Obj = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: false });
/** A class name (the classes route's bounds). */
const Name = Type.String({ minLength: 1, maxLength: 256 });
/** By property name: a record's key schema bounds nothing (TypeBox matches any key), propertyNames does. */
const ByPropertyName = <T extends Parameters<typeof Type.Record>[1]>(value: T) => Type.Record(Type.String(), value, { propertyNames: PropertyInput.properties.name });
const User = CreateUserBody.properties;
/** Bounds: one file describes a site, not a data set (and a YAML alias bomb stays small). */
const Many = { maxItems: 10_000 };

const Scalar = Type.Union([PropertyInput.properties.value.anyOf[0], Type.Number(), Type.Boolean()]);
/** A plain value (a read-write property, type 3), or `{value, type_id}` for another type. */
const Property = Type.Union([Scalar, Obj({ value: Scalar, type_id: Type.Integer({ minimum: 1 }) })]);

const Document = Type.Array(Type.Unknown(), { maxItems: 1000 });

export const ClassSpec = Obj({
  name: Name,
  description: Type.Optional(Type.String({ maxLength: 4096 })),
  icon: Type.Optional(Type.String({ maxLength: 256 })),
});

export const LevelSpec = Obj({
  name: LevelBody.properties.name,
  /** #RRGGBB, as the incident-levels route takes it. */
  color: LevelBody.properties.ui.properties.colors.properties.main,
});

export const ObjectSpec = Obj({
  discovery_id: Type.String({ minLength: 1, maxLength: 256 }),
  name: CreateObjectBody.properties.name,
  /** discovery_ids of the parents (in these files or already in the catalog); absent: the root. */
  parents: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 100 })),
  /** The class by name (a built-in one or one of `classes`). */
  class: Type.Optional(Name),
  properties: Type.Optional(ByPropertyName(Property)),
  /** Check definitions by property name (service properties, type 8). */
  checks: Type.Optional(ByPropertyName(Type.Record(Type.String(), Type.Unknown()))),
  stateConditions: Type.Optional(Document),
  /** `state` of each may name a level by its name as well as by its id. */
  incidentConditions: Type.Optional(Document),
  stateTriggers: Type.Optional(Document),
});

export const UserSpec = Obj({
  /** No white space or colon (HTTP Basic could not sign in with one), as the users route. */
  login: User.login,
  /** The environment variable holding the password: passwords are never written in the files. */
  passwordEnv: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', maxLength: 128 }),
  email: User.email,
  language: User.language,
  permissions: User.permissions,
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
