// Schemas of data annotations: request validation, handler types and the OpenAPI document.
import { Type, type Static } from 'typebox';
import { IdInput } from '../entities/schemas.js';

/** Bounds of an annotation (characters; tags per annotation). */
export const ANNOTATION_LIMITS = { content: 10_000, tags: 20, tag: 100 } as const;

const Millis = Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER });
const Content = Type.String({ minLength: 1, maxLength: ANNOTATION_LIMITS.content, description: `the note, 1 to ${ANNOTATION_LIMITS.content} characters` });
const Tags = Type.Array(Type.String({ minLength: 1, maxLength: ANNOTATION_LIMITS.tag }), {
  maxItems: ANNOTATION_LIMITS.tags,
  description: `free-form labels (at most ${ANNOTATION_LIMITS.tags}, each at most ${ANNOTATION_LIMITS.tag} characters), so a chart can show only its own; [] removes them`,
});

export const AnnotationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) });

export const AnnotationSchema = Type.Object({
  id: Type.String(),
  content: Type.String(),
  user: Type.String({ description: 'user id of the author (unchanged by later changes)' }),
  timestamp: Type.Integer({ description: 'ms, the time the annotation refers to' }),
  changed: Type.Integer({ description: 'ms, the last change (the creation at first)' }),
  entityId: Type.Optional(Type.String({ description: 'the object or link it is about; absent for an annotation of no entity' })),
  tags: Type.Optional(Type.Array(Type.String(), { description: 'absent when it has none' })),
});

export const CreateAnnotationBody = Type.Object({
  timestamp: Millis,
  content: Content,
  entityId: Type.Optional(IdInput),
  tags: Type.Optional(Tags),
});
export type CreateAnnotationInput = Static<typeof CreateAnnotationBody>;

export const PatchAnnotationBody = Type.Object({
  content: Type.Optional(Content),
  timestamp: Type.Optional(Millis),
  tags: Type.Optional(Tags),
});
export type PatchAnnotationInput = Static<typeof PatchAnnotationBody>;

export const AnnotationListQuery = Type.Object({
  from: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'ms, inclusive (required)' }),
  to: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'ms, inclusive (required; not before from)' }),
  entityId: Type.Optional(Type.String({ maxLength: 32, description: 'only the annotations of this entity' })),
  tag: Type.Optional(Type.String({ minLength: 1, maxLength: ANNOTATION_LIMITS.tag, description: 'only the annotations carrying this tag' })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 100 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});
export type AnnotationListInput = Static<typeof AnnotationListQuery>;
