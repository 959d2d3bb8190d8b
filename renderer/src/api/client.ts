import type { ConsoleErrorBody } from '../../../core/http/routes/console/api-types';

/** An error answer of the console API, with its machine-readable code and HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field: string | undefined;

  constructor(status: number, body: Partial<ConsoleErrorBody>) {
    super(body.message ?? `Request failed with HTTP ${status}.`);
    this.name = 'ApiError';
    this.status = status;
    this.code = body.code ?? 'HTTP_' + String(status);
    this.field = body.field;
  }

  /** True when the engine behind the action is not built on this server. */
  get notAvailable(): boolean {
    return this.status === 501;
  }
}

/** Listeners told when a request answers 401 (session expired), so the app returns to sign-in. */
const unauthorizedListeners = new Set<() => void>();

/** Subscribe to "the session is gone"; returns the unsubscribe function. */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

async function parse<T>(response: Response): Promise<T> {
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    if (response.status === 401 && !response.url.endsWith('/login'))
      unauthorizedListeners.forEach((l) => {
        l();
      });
    throw new ApiError(response.status, (body as Partial<ConsoleErrorBody> | undefined) ?? {});
  }
  return body as T;
}

/** Call a console API route with an optional JSON body (same-origin, cookie session). */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers = { 'content-type': 'application/json' };
    init.body = JSON.stringify(body);
  }
  return parse<T>(await fetch(`/api/console${path}`, init));
}

/** POST a multipart form (images) to a console route. */
export async function postForm<T>(path: string, form: FormData, signal?: AbortSignal): Promise<T> {
  const init: RequestInit = { method: 'POST', credentials: 'same-origin', body: form };
  if (signal) init.signal = signal;
  return parse<T>(await fetch(`/api/console${path}`, init));
}

/**
 * POST a multipart form to a console route that answers NDJSON, calling `onLine` with each parsed line as it
 * arrives. An error status before the stream opens throws an ApiError, like `postForm`.
 */
export async function postFormStream(
  path: string,
  form: FormData,
  onLine: (line: unknown) => void,
): Promise<void> {
  const response = await fetch(`/api/console${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    body: form,
  });
  if (!response.ok || !response.body) {
    await parse<unknown>(response);
    return;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += value;
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const line of complete) if (line.trim()) onLine(JSON.parse(line));
  }
  if (buffered.trim()) onLine(JSON.parse(buffered));
}

/** The message to show for any error thrown by the API helpers. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return 'Something went wrong.';
}
