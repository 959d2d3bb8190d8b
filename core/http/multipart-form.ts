import type { FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { CoreError, isCoreError } from '../errors.js';
import type { ImageLimits } from '../imaging/limits.js';
import { clientClosed } from './client-closed.js';
import { echoableName } from './json-body.js';
import { wrongMediaType } from './media-type.js';

/** A multipart form read into memory: text fields and raw file bytes (never logged). */
export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

const MAX_TEXT_FIELD = 10_000;
const MAX_TEXT_FIELDS = 20;
const MAX_FILES = 6;

/** "10 MiB" for whole mebibytes, else the byte count. */
export function describeBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

function fieldDetails(name: string): { field?: string } {
  const field = echoableName(name);
  return field ? { field } : {};
}

function named(name: string): string {
  const field = echoableName(name);
  return field ? `The ${field} field` : 'A field';
}

/** A parse failure of the multipart body as the caller's error (400), unless it is ours or the client left. */
function multipartError(request: FastifyRequest, error: unknown): unknown {
  if (isCoreError(error) || clientClosed(request)) return error;
  // Fastify's and @fastify/multipart's own errors (limits, prototype keys) are mapped by the error handler.
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (typeof code === 'string' && code.startsWith('FST_')) return error;
  const text = error instanceof Error ? error.message : '';
  request.log.debug({ reason: text.slice(0, 200) }, 'malformed multipart body');
  if (/boundary not found/i.test(text)) {
    return new CoreError(
      'BODY_INVALID',
      'The multipart body cannot be read: its Content-Type has no boundary.',
    );
  }
  if (/terminated early|unexpected end/i.test(text)) {
    return new CoreError('BODY_INVALID', 'The multipart body ends before its closing boundary.');
  }
  return new CoreError('BODY_INVALID', 'The multipart body is malformed.');
}

function isFileTooLarge(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
  );
}

async function readFilePart(part: MultipartFile, limits: ImageLimits): Promise<Buffer> {
  try {
    return await part.toBuffer();
  } catch (error) {
    if (isFileTooLarge(error)) {
      throw new CoreError(
        'FILE_TOO_LARGE',
        `The image in the ${echoableName(part.fieldname) ?? 'uploaded'} field is over the ${describeBytes(limits.maxFileBytes)} limit.`,
        fieldDetails(part.fieldname),
      );
    }
    throw error;
  }
}

/**
 * Read a multipart request: enforces content type, per-file byte limit (413), field counts, and that no field is
 * sent twice (400: which copy would count is the caller's guess).
 */
export async function readMultipart(request: FastifyRequest, limits: ImageLimits): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw wrongMediaType('multipart/form-data', request.headers['content-type']?.split(';')[0]);
  }
  const form: MultipartForm = { fields: {}, files: {} };
  const seen = new Set<string>();
  let files = 0;
  let texts = 0;
  try {
    // The parser's own limits sit one above ours, so ours answer first, with a message that says which.
    for await (const part of request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        files: MAX_FILES + 1,
        fields: MAX_TEXT_FIELDS + 1,
        fieldSize: MAX_TEXT_FIELD,
      },
    })) {
      const name = part.fieldname as string | undefined;
      if (!name) throw new CoreError('BODY_INVALID', 'A part of the form has no field name.');
      if ((part.type === 'file' ? ++files : ++texts) > (part.type === 'file' ? MAX_FILES : MAX_TEXT_FIELDS)) {
        throw new CoreError(
          'BODY_INVALID',
          `The form has more than ${part.type === 'file' ? `${MAX_FILES} files` : `${MAX_TEXT_FIELDS} text fields`}.`,
        );
      }
      if (seen.has(name)) {
        throw new CoreError(
          'FIELD_INVALID',
          `${named(name)} is sent more than once; send each field once.`,
          fieldDetails(name),
        );
      }
      seen.add(name);
      if (part.type === 'file') {
        form.files[name] = await readFilePart(part, limits);
      } else if (part.valueTruncated) {
        throw new CoreError(
          'FIELD_INVALID',
          `${named(name)} is longer than ${MAX_TEXT_FIELD} characters.`,
          fieldDetails(name),
        );
      } else {
        form.fields[name] = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
      }
    }
  } catch (error) {
    throw multipartError(request, error);
  }
  return form;
}
