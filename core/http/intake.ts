import type { FastifyRequest } from 'fastify';
import { CoreError } from '../errors.js';
import { decodeImage, type DecodedImage } from '../imaging/decode.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from '../imaging/limits.js';
import { describeBytes, readMultipart } from './multipart-form.js';

export { readMultipart, type MultipartForm } from './multipart-form.js';

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

/** Decode an upload and refuse (422) an image too narrow for any engine to use. */
async function decodeUsable(bytes: Buffer, field: string, limits: ImageLimits): Promise<DecodedImage> {
  const image = await decodeImage(bytes, { field, limits });
  const { minSide } = limits;
  if (Math.min(image.width, image.height) < minSide) {
    throw new CoreError(
      'UNPROCESSABLE',
      `The image in the ${field} field is ${image.width}x${image.height} pixels: too small to use (each side needs at least ${minSide}).`,
      { field },
    );
  }
  return image;
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
  for (const name of [...(spec.textFields ?? []), ...(spec.optionalTextFields ?? [])]) {
    if (form.files[name] !== undefined) {
      throw new CoreError('FIELD_INVALID', `The ${name} field must be text, not a file.`, { field: name });
    }
    const value = form.fields[name];
    if (value !== undefined && value.trim() !== '') text[name] = value;
    else if (spec.textFields?.includes(name)) {
      throw new CoreError('FIELD_MISSING', `The ${name} field is required.`, { field: name });
    }
  }
  spec.checkText?.(text);
  const found: [string, Buffer][] = [];
  for (const aliases of spec.fileFields) {
    const canonical = aliases[0]!;
    const asText = aliases.find((a) => form.fields[a] !== undefined);
    if (asText !== undefined) {
      throw new CoreError('FIELD_INVALID', `The ${asText} field must be an image file, not text.`, {
        field: asText,
      });
    }
    const sent = aliases.filter((a) => form.files[a] !== undefined);
    if (sent.length > 1) {
      throw new CoreError(
        'FIELD_INVALID',
        `Send the ${canonical} image in one field: ${aliases.join(' or ')}, not both.`,
        { field: canonical },
      );
    }
    if (sent.length === 0) {
      if (spec.optionalFiles?.includes(canonical)) continue;
      throw new CoreError(
        'FIELD_MISSING',
        `The ${canonical} field is required: attach an image file (JPEG, PNG, WebP, TIFF or BMP).`,
        { field: canonical },
      );
    }
    found.push([canonical, form.files[sent[0]!]!]);
  }
  const images: Record<string, DecodedImage> = {};
  for (const [name, bytes] of found) images[name] = await decodeUsable(bytes, name, limits);
  return { text, images };
}

/** Decode a base64 image from a JSON body field (the sub-services' convention), with the same checks as uploads. */
export async function readJsonImage(
  body: unknown,
  field: string,
  limits: ImageLimits = DEFAULT_IMAGE_LIMITS,
  optional = false,
): Promise<DecodedImage | undefined> {
  const value = jsonObject(body)[field];
  if (value === undefined || value === null || value === '') {
    if (optional) return undefined;
    throw new CoreError('FIELD_MISSING', `The ${field} field (a base64-encoded image) is required.`, {
      field,
    });
  }
  if (typeof value !== 'string') {
    throw new CoreError('FIELD_INVALID', `The ${field} field must be a base64 string.`, { field });
  }
  const payload = value.replace(/^data:[\w/+.-]+;base64,/, '');
  // Reject before allocating: base64 is 4/3 of the bytes it carries.
  if (Math.floor((payload.length * 3) / 4) > limits.maxFileBytes + 3) {
    throw new CoreError(
      'FILE_TOO_LARGE',
      `The image in the ${field} field is over the ${describeBytes(limits.maxFileBytes)} limit.`,
      { field },
    );
  }
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(payload.replace(/\s+/g, ''))) {
    throw new CoreError('FIELD_INVALID', `The ${field} field is not valid base64.`, { field });
  }
  return decodeUsable(Buffer.from(payload, 'base64'), field, limits);
}

/** A text field of a JSON body, trimmed; undefined when absent. */
export function readJsonText(body: unknown, field: string, maxLength = 1000): string | undefined {
  const value = jsonObject(body)[field];
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

/** The fields of a JSON body; a body that is JSON but not an object (array, string, number, null) is a 400. */
function jsonObject(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isRecord(body)) {
    throw new CoreError(
      'BODY_INVALID',
      'The JSON body must be an object holding the fields of this endpoint.',
    );
  }
  return body;
}
