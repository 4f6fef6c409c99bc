// Schemas of view presets: request validation, handler types and the OpenAPI document.
import { Type, type Static } from 'typebox';
import { BUILT_IN_PRESET_KEYS, TABLE_LAYOUT_DESCRIPTION } from './builtin-keys.js';

/** Bounds of a preset: name length, data size as JSON (bytes), presets per user. */
export const PRESET_LIMITS = { name: 200, dataBytes: 64 * 1024, perUser: 1000 } as const;

const builtIn = Object.entries(BUILT_IN_PRESET_KEYS).map(([k, what]) => `\`${k}\` (${what})`).join('; ');
export const KEYS_DESCRIPTION = `Built-in keys: ${builtIn}. A table layout is ${TABLE_LAYOUT_DESCRIPTION}. Any other key holds any JSON object.`;

const Key = Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$', description: 'the page the preset is for' });
const Name = Type.String({ minLength: 1, maxLength: PRESET_LIMITS.name });
const Data = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, description: `a JSON object of at most ${PRESET_LIMITS.dataBytes} bytes; its shape depends on the key` });
const Shared = Type.Boolean({ description: 'readable by every signed-in user (changed only by its owner or a user with manage-users)' });

export const PresetParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) });

export const PresetSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key: Type.String(),
  data: Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
  shared: Type.Boolean(),
  owner: Type.String({ description: 'user id of the creator' }),
});

export const CreatePresetBody = Type.Object({ name: Name, key: Key, data: Data, shared: Type.Optional(Shared) });
export type CreatePresetInput = Static<typeof CreatePresetBody>;
/** PUT replaces the whole preset: `shared` left out is false. */
export const ReplacePresetBody = CreatePresetBody;
export const PatchPresetBody = Type.Object({ name: Type.Optional(Name), key: Type.Optional(Key), data: Type.Optional(Data), shared: Type.Optional(Shared) });
export type PatchPresetInput = Static<typeof PatchPresetBody>;

export const PresetListQuery = Type.Object({
  key: Type.Optional(Key),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 100 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});
