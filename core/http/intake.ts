import type { FastifyRequest } from 'fastify';
import type { MultipartFile as _MultipartFile } from '@fastify/multipart';
import { CoreError } from '../errors.js';
import { decodeImage, type DecodedImage } from '../imaging/decode.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../imaging/limits.js';

/** A multipart form read into memory: text fields and raw file bytes (never logged). */
export interface MultipartForm {
  fields: Record<string, string>;
  files: Record<string, Buffer>;
}

/** What a route expects of a multipart form. */
export interface MultipartSpec {
  /** Text fields that must be present and non-empty. */
  textFields?: string[];
  /** Optional text fields (unknown text fields are ignored). */
  optionalTextFields?: string[];
  /** File fields, in the order they are validated; each entry lists accepted aliases (first is canonical). */
  fileFields: string[][];
  /** File fields (by canonical name) that may be absent. */
  optionalFiles?: string[];
  /** Cheap checks of the text fields (e.g. the mobile number), run before any image is decoded. */
  checkText?: (text: Record<string, string>) => void;
}

const MAX_TEXT_FIELD = 10_000;

/** Read a multipart request: enforces content type, per-file byte limit (413) and field counts. */
export async function readMultipart(request: FastifyRequest, limits: ImageLimits): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new CoreError('UNSUPPORTED_MEDIA_TYPE', 'This endpoint takes multipart/form-data.');
  }
  const form: MultipartForm = { fields: {}, files: {} };
  for await (const part of request.parts({
    limits: { fileSize: limits.maxFileBytes, files: 6, fields: 20, fieldSize: MAX_TEXT_FIELD },
  })) {
    if (part.type === 'file') {
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if (isFileTooLarge(error)) {
          throw new CoreError(
            'FILE_TOO_LARGE',
            `The ${part.fieldname} file exceeds ${limits.maxFileBytes} bytes.`,
            {
              field: part.fieldname,
            },
          );
        }
        throw error;
      }
      form.files[part.fieldname] = bytes;
    } else if (typeof part.value === 'string') {
      form.fields[part.fieldname] = part.value;
    }
  }
  return form;
}

function isFileTooLarge(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE'
  );
}

/** The validated content of a multipart request: text fields and decoded images by canonical name. */
export interface ValidatedForm {
  text: Record<string, string>;
  images: Record<string, DecodedImage>;
}

/**
 * Read and validate a multipart request against its spec: every required field present (400 with `field`),
 * every image decoded and checked (413/415), in a fixed order so the first bad field is the one reported.
 */
export async function readValidatedMultipart(
  request: FastifyRequest,
  spec: MultipartSpec,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
): Promise<ValidatedForm> {
  const form = await readMultipart(request, limits);
  const text: Record<string, string> = {};
  for (const name of spec.textFields ?? []) {
    const value = form.fields[name];
    if (value === undefined || value.trim() === '') {
      throw new CoreError('FIELD_MISSING', `The ${name} field is required.`, { field: name });
    }
    text[name] = value;
  }
  for (const name of spec.optionalTextFields ?? []) {
    const value = form.fields[name];
    if (value !== undefined && value.trim() !== '') text[name] = value;
  }
  spec.checkText?.(text);
  const found: [string, Buffer][] = [];
  for (const aliases of spec.fileFields) {
    const canonical = aliases[0]!;
    const alias = aliases.find((a) => form.files[a] !== undefined);
    if (alias === undefined) {
      if (spec.optionalFiles?.includes(canonical)) continue;
      throw new CoreError('FIELD_MISSING', `The ${canonical} file is required.`, { field: canonical });
    }
    found.push([canonical, form.files[alias]!]);
  }
  const images: Record<string, DecodedImage> = {};
  for (const [name, bytes] of found) images[name] = await decodeImage(bytes, { field: name, limits });
  return { text, images };
}

/** Decode a base64 image from a JSON body field (the sub-services' convention), with the same checks as uploads. */
export async function readJsonImage(
  body: unknown,
  field: string,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
  optional = false,
): Promise<DecodedImage | undefined> {
  const value = isRecord(body) ? body[field] : undefined;
  if (value === undefined || value === null || value === '') {
    if (optional) return undefined;
    throw new CoreError('FIELD_MISSING', `The ${field} field (base64 image) is required.`, { field });
  }
  if (typeof value !== 'string') {
    throw new CoreError('FIELD_INVALID', `The ${field} field must be a base64 string.`, { field });
  }
  const payload = value.replace(/^data:[\w/+.-]+;base64,/, '');
  // Reject before allocating: base64 is 4/3 of the bytes it carries.
  if (Math.floor((payload.length * 3) / 4) > limits.maxFileBytes + 3) {
    throw new CoreError('FILE_TOO_LARGE', `The ${field} image exceeds ${limits.maxFileBytes} bytes.`, {
      field,
    });
  }
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload.replace(/\s+/g, ''))) {
    throw new CoreError('FIELD_INVALID', `The ${field} field is not valid base64.`, { field });
  }
  return decodeImage(Buffer.from(payload, 'base64'), { field, limits });
}

/** A text field of a JSON body, trimmed; undefined when absent. */
export function readJsonText(body: unknown, field: string, maxLength = 1000): string | undefined {
  const value = isRecord(body) ? body[field] : undefined;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > maxLength) {
    throw new CoreError(
      'FIELD_INVALID',
      `The ${field} field must be a string of at most ${maxLength} characters.`,
      {
        field,
      },
    );
  }
  return value.trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
