import type { FastifyInstance } from 'fastify';
import { CoreError } from '../errors.js';

/** Deepest nesting a JSON body may have; the API's bodies are a few levels deep. */
export const MAX_JSON_DEPTH = 32;

/** Index of the quote closing the JSON string that opens at `start` (the text is known to be valid JSON). */
function stringEnd(text: string, start: number): number {
  let from = start + 1;
  for (;;) {
    const quote = text.indexOf('"', from);
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/** What is wrong with the structure of valid JSON text: a key repeated in one object, or too deep a nesting. */
export function jsonStructureProblem(
  text: string,
  maxDepth = MAX_JSON_DEPTH,
): { duplicateKey: string } | { tooDeep: true } | undefined {
  // One entry per open container: the keys seen so far for an object, null for an array.
  const open: (Set<string> | null)[] = [];
  let expectKey = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(text, i);
      if (expectKey) {
        const raw = text.slice(i, end + 1);
        const key = raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
        const keys = open[open.length - 1]!;
        if (keys.has(key)) return { duplicateKey: key };
        keys.add(key);
        expectKey = false;
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      open.push(c === 0x7b ? new Set() : null);
      if (open.length > maxDepth) return { tooDeep: true };
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) {
      open.pop();
    } else if (c === 0x2c) {
      expectKey = open[open.length - 1] instanceof Set;
    }
  }
  return undefined;
}

/** A field name safe to echo in a message and the `field` of an error body. */
export function echoableName(name: string): string | undefined {
  return /^[\w.-]{1,64}$/.test(name) ? name : undefined;
}

/**
 * JSON bodies parsed by Fastify's own parser (prototype-poisoning checks kept), then refused with 400 when a key
 * appears twice in one object (parsers disagree on which copy wins) or the nesting is deeper than any body needs.
 */
export function installJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, raw, done) => {
    const body = typeof raw === 'string' ? raw : raw.toString('utf8');
    void parse(request, body, (error, value) => {
      if (error) {
        done(error, undefined);
        return;
      }
      const problem = jsonStructureProblem(body);
      if (problem && 'tooDeep' in problem) {
        done(
          new CoreError('BODY_INVALID', `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`),
          undefined,
        );
        return;
      }
      if (problem) {
        const field = echoableName(problem.duplicateKey);
        const what = field ? `The ${field} field` : 'A field';
        done(
          new CoreError('FIELD_INVALID', `${what} appears more than once in the JSON body; send it once.`, {
            ...(field ? { field } : {}),
          }),
          undefined,
        );
        return;
      }
      done(null, value);
    });
  });
}
