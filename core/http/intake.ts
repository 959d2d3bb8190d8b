import type { FastifyRequest } from 'fastify';
import { CoreError } from '../errors.js';
import { decodeImage, type DecodedImage } from '../imaging/decode.js';
import type { DecodeBudget, DecodeLease } from '../imaging/decode-budget.js';
import type { ImageLimits } from '../imaging/limits.js';
import type { ImagePurpose } from '../imaging/working-size.js';
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
  /** The engines each file field (by canonical name) is for: it is decoded at their working size. */
  purposes?: Record<string, readonly ImagePurpose[]>;
}

/** What decoding uploads needs of the server: its limits and the decode budget every request shares. */
export interface ImageIntake {
  limits: ImageLimits;
  decodeBudget?: DecodeBudget;
}

/** The request's share of the decode budget, returned when the request is done. */
function leaseOf(request: FastifyRequest, budget: DecodeBudget | undefined): DecodeLease | undefined {
  if (!budget) return undefined;
  const held = request as FastifyRequest & { decodeLease?: DecodeLease };
  if (!held.decodeLease) {
    const lease = budget.lease();
    held.decodeLease = lease;
    // Requests built without the server's hooks (tests of the intake alone) release nothing: none is shared.
    request.resources?.hold(() => {
      lease.release();
    });
  }
  return held.decodeLease;
}

/** Decode an upload at its engines' working size and refuse (422) an image too narrow for any engine to use. */
async function decodeUsable(
  request: FastifyRequest,
  bytes: Buffer,
  field: string,
  intake: ImageIntake,
  purposes: readonly ImagePurpose[],
): Promise<DecodedImage> {
  const { limits } = intake;
  const lease = leaseOf(request, intake.decodeBudget);
  const image = await decodeImage(bytes, {
    field,
    limits,
    purposes,
    ...(lease ? { lease } : {}),
    ...(request.resources ? { signal: request.resources.clientGone } : {}),
  });
  const { width, height } = image.source ?? image;
  const { minSide } = limits;
  if (Math.min(width, height) < minSide) {
    throw new CoreError(
      'UNPROCESSABLE',
      `The image in the ${field} field is ${width}x${height} pixels: too small to use (each side needs at least ${minSide}).`,
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
  intake: ImageIntake,
): Promise<ValidatedForm> {
  const form = await readMultipart(request, intake.limits);
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
  for (const [name, bytes] of found)
    images[name] = await decodeUsable(request, bytes, name, intake, spec.purposes?.[name] ?? []);
  return { text, images };
}

/** How a JSON image field is read. */
export interface JsonImageOptions {
  /** The engines the image is for: it is decoded at their working size. */
  purposes?: readonly ImagePurpose[];
  /** Absent is fine (undefined) rather than 400. */
  optional?: boolean;
}

/** Decode a base64 image from a JSON body field (the sub-services' convention), with the same checks as uploads. */
export async function readJsonImage(
  request: FastifyRequest,
  field: string,
  intake: ImageIntake,
  options: JsonImageOptions = {},
): Promise<DecodedImage | undefined> {
  const { limits } = intake;
  const optional = options.optional ?? false;
  const value = jsonObject(request.body)[field];
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
  return decodeUsable(request, Buffer.from(payload, 'base64'), field, intake, options.purposes ?? []);
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
