// Shapes of the document routes, for validation and the OpenAPI document.
import { Type } from 'typebox';
import { IdParams } from '../entities/schemas.js';

export const DocSchema = Type.Object({
  id: Type.String(),
  value: Type.String({ description: 'What a client stores and shows: for a URL document the URL (credentials and query values masked for readers without manage-service-properties); for a file the path (under the API) that serves it back, e.g. /node/api/objects/{id}/docs/{docId}/file' }),
  name: Type.String({ description: 'The name given, else the uploaded file\'s name (or the URL)' }),
  contentType: Type.Union([Type.String(), Type.Null()], { description: 'A file\'s media type; null for a URL document' }),
  size: Type.Union([Type.Integer(), Type.Null()], { description: 'A file\'s length in bytes; null for a URL document' }),
  created: Type.Integer({ description: 'ms' }),
  userId: Type.String({ description: 'Who added it' }),
});

export const DocParams = Type.Object({ ...IdParams.properties, docId: Type.String({ minLength: 1 }) });

export const DocListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 1000 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
});

export const UploadQuery = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 1024, description: 'The name of a file sent as a raw body (a form sends the file\'s own name)' })),
});

export const UrlDocBody = Type.Object({
  url: Type.String({ maxLength: 2048, description: 'An http or https URL' }),
  name: Type.Optional(Type.String({ maxLength: 1024 })),
});

// No `type`: the body of a form or a raw upload is not JSON, so these schemas only describe it
// (a validator passes what is not an object) and the route reads the stream itself.
export const FormDocBody = Type.Unsafe<unknown>({
  properties: {
    file: { type: 'string', format: 'binary', description: 'The file (one), e.g. curl -F file=@manual.pdf' },
    name: { type: 'string', description: 'Optional name to show instead of the file\'s own' },
  },
  required: ['file'],
});
export const RawDocBody = Type.Unsafe<unknown>({ format: 'binary', description: 'The file\'s bytes, with its own Content-Type (any type but JSON, which is the URL form); ?name= names it' });
