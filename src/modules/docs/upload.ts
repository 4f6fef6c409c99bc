// Reading an uploaded document: a multipart form (a browser form, `curl -F file=@x.pdf`) read
// part by part under busboy's limits, or a raw body with its own Content-Type. The size limit
// is docs.maxBytes either way; the app's JSON limit stays as it is for the URL form.
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest } from '../../errors.js';
import type { NewFile } from './service.js';

export const FILE_FIELD = 'file';
export const NAME_FIELD = 'name';
/** Room for a form's boundaries and part headers around the file, checked from Content-Length. */
export const FORM_OVERHEAD = 16 * 1024;

export const multipartLimits = (maxBytes: number) => ({
  fileSize: maxBytes,
  files: 1,
  fields: 4,
  parts: 5,
  fieldNameSize: 100,
  fieldSize: 4096,
  headerPairs: 20,
});

const TOO_LARGE = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/** Errors of @fastify/multipart and busboy as the API's codes. */
function uploadError(err: unknown, maxBytes: number): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('PayloadTooLarge', `the file is larger than ${maxBytes} bytes (docs.maxBytes)`);
  if (code && TOO_LARGE.has(code)) return new AppError('PayloadTooLarge', `the form has more parts than one file and a name (${(err as Error).message})`);
  if (err instanceof Error) return new AppError('InvalidContent', `multipart body: ${err.message}`);
  return err;
}

/** The one file of a multipart form, and the optional `name` field. */
export async function readForm(req: FastifyRequest, maxBytes: number): Promise<NewFile> {
  let file: NewFile | undefined;
  let name: string | undefined;
  try {
    for await (const part of req.parts({ limits: multipartLimits(maxBytes) })) {
      if (part.type === 'file') {
        if (part.fieldname !== FILE_FIELD) throw badRequest(`body.${part.fieldname}: unknown field; send the document as the form field "${FILE_FIELD}"`);
        file = { fileName: part.filename, contentType: part.mimetype, content: await part.toBuffer() };
      } else {
        // `-F file=<x.txt` or FormData.append('file', text): the field is known, but not a file.
        if (part.fieldname === FILE_FIELD) throw badRequest(`body.${FILE_FIELD}: sent as a text field; send the document as a file part (with a filename), as curl -F ${FILE_FIELD}=@x.pdf does`);
        if (part.fieldname !== NAME_FIELD) throw badRequest(`body.${part.fieldname}: unknown field; known: ${FILE_FIELD}, ${NAME_FIELD}`);
        if (part.valueTruncated) throw badRequest(`body.${NAME_FIELD}: too long`);
        name = String(part.value);
      }
    }
  } catch (err) {
    throw uploadError(err, maxBytes);
  }
  if (!file) throw badRequest(`body.${FILE_FIELD}: missing; send the document as the form field "${FILE_FIELD}"`);
  return { ...file, name };
}

/** A raw body (parsed as bytes by the docs routes' own parser), named by ?name=. */
export function readRaw(req: FastifyRequest, name: string | undefined): NewFile {
  const body = req.body;
  if (!Buffer.isBuffer(body) || body.length === 0) throw badRequest('body: send a file (multipart/form-data or a raw body with its Content-Type) or {"url": ...} as JSON');
  return { fileName: name, contentType: req.headers['content-type'], content: body };
}
