import { Type, type Static } from 'typebox';
import { RIGHTS } from './rights.js';

const Id = Type.Union([Type.Integer(), Type.String()]);
export const ObjectPermissionsSchema = Type.Object(
  { include: Type.Array(Id, { maxItems: 10000 }), exclude: Type.Optional(Type.Array(Id, { maxItems: 10000 })) },
  { additionalProperties: false },
);

const Permission = Type.Union(RIGHTS.map((r) => Type.Literal(r)));
const Status = Type.Union([Type.Literal(2), Type.Literal(3)], { description: '2 active, 3 blocked' });
const Login = Type.String({ minLength: 1, maxLength: 128, pattern: '^[^\\s:]+$', description: 'no white space or colon' });
const Password = Type.String({ minLength: 1, maxLength: 1024 });
const Millis = Type.Integer({ minimum: 0 });
// A type list, not a union: the app's validator coerces types, and inside an anyOf it coerced
// null to 0 in the integer branch, so "activeTo": null (never expire) blocked the user.
// With a type list Ajv leaves a value alone when it already has one of the types.
const MillisOrNull = Type.Unsafe<number | null>({ type: ['integer', 'null'], minimum: 0 });
const Text = (max: number) => Type.String({ maxLength: max });

export const UserSchema = Type.Object(
  {
    id: Type.String(),
    login: Type.String(),
    email: Type.String(),
    status: Type.Integer({ description: '2 active, 3 blocked (also when activeTo has passed)' }),
    language: Type.String(),
    contacts: Type.Array(Type.Unknown()),
    eventFilter: Type.Array(Type.Unknown()),
    permissions: Type.Array(Type.String()),
    objectPermissions: Type.Optional(ObjectPermissionsSchema),
    activeTo: Type.Union([Millis, Type.Null()]),
    created: Millis,
    updated: Millis,
  },
);
export type UserView = Static<typeof UserSchema>;

export const CreateUserBody = Type.Object({
  login: Login,
  password: Password,
  email: Type.Optional(Text(320)),
  status: Type.Optional(Status),
  language: Type.Optional(Text(16)),
  contacts: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
  eventFilter: Type.Optional(Type.Array(Type.Unknown(), { maxItems: 100 })),
  permissions: Type.Optional(Type.Array(Permission, { maxItems: 100 })),
  objectPermissions: Type.Optional(Type.Union([ObjectPermissionsSchema, Type.Null()])),
  activeTo: Type.Optional(MillisOrNull),
});
export type CreateUserInput = Static<typeof CreateUserBody>;

export const PatchUserBody = Type.Partial(Type.Object({
  ...CreateUserBody.properties,
  currentPassword: Type.String({
    maxLength: 1024,
    description: 'Your current password: needed to change your own password (not with HTTP Basic, which carries it)',
  }),
}));
export type PatchUserInput = Static<typeof PatchUserBody>;

/** POST /users/:id/auth-token: your own token needs your password (not with HTTP Basic). */
export const TokenRequestBody = Type.Object({
  password: Type.Optional(Type.String({ maxLength: 1024, description: 'Your password, when the token is your own' })),
});

export const UserIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 1000 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});

export const UserSearchBody = Type.Record(Type.String(), Type.Unknown(), {
  description:
    'MongoDB-style filter over user fields. `email` also takes `{contains: "part"}` (case-sensitive). ' +
    'Nested objects (objectPermissions) match only as a whole. Code-running operators ($where) are refused.',
});
