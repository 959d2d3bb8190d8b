import type { FastifyRequest } from 'fastify';
import { maskMobile } from '../mobile.js';

/** Query parameters whose value is a secret whatever it looks like. */
const SECRET_NAME = /key|token|secret|pass|auth|session|cookie|signature/i;
/** An API key of this product (idv_<prefix>_<secret>), wherever it appears. */
const API_KEY = /^idv_/i;

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A phone number as callers write it: digits (7 or more) with spaces, dashes, dots, brackets, a leading +. */
function maskedNumber(value: string): string | undefined {
  if (!/^[\d\s+\-().]+$/.test(value)) return undefined;
  const digits = value.replace(/\D/g, '');
  return digits.length >= 7 ? maskMobile(`+${digits}`) : undefined;
}

function redactPathSegment(segment: string): string {
  const decoded = safeDecode(segment);
  if (API_KEY.test(decoded)) return '[redacted]';
  return maskedNumber(decoded) ?? segment;
}

/**
 * A request URL as it may be logged: mobile numbers in path segments and query values masked like the audit
 * log's (+4479*****456), API keys and other secrets in the query string replaced.
 */
export function redactUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = mark < 0 ? url : url.slice(0, mark);
  const safePath = path.split('/').map(redactPathSegment).join('/');
  if (mark < 0) return safePath;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return API_KEY.test(safeDecode(pair)) ? '[redacted]' : pair;
      const name = pair.slice(0, eq);
      const value = safeDecode(pair.slice(eq + 1));
      if (SECRET_NAME.test(safeDecode(name)) || API_KEY.test(value)) return `${name}=[redacted]`;
      const masked = maskedNumber(value);
      return masked ? `${name}=${encodeURIComponent(masked)}` : pair;
    })
    .join('&');
  return `${safePath}?${query}`;
}

/** pino serializer of a request: Fastify's own fields, with the URL redacted. */
export function redactedRequest(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    version: request.headers['accept-version'],
    host: request.host,
    remoteAddress: request.ip,
    remotePort: (request.socket as FastifyRequest['socket'] | undefined)?.remotePort,
  };
}
