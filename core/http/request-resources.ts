import type { FastifyInstance, FastifyRequest, RouteHandlerMethod } from 'fastify';

/**
 * What a request holds while it is served (its admission slot, its share of the decode budget), released once it
 * is done: when its handler has settled, or when its response closed and no handler runs. A client that leaves
 * while an engine still works for it does not free the slot or the memory early.
 */
export class RequestResources {
  readonly #releases: ((completed: boolean) => void)[] = [];
  readonly #leaving = new AbortController();
  #handlerRunning = false;
  #completed = false;
  #done = false;

  /** Aborted when the client closes the connection before the answer. */
  get clientGone(): AbortSignal {
    return this.#leaving.signal;
  }

  /**
   * Hold something until the request is done (released at once when it already is); `release` learns whether the
   * route handler ran to its answer (not refused or failed on the way).
   */
  hold(release: (completed: boolean) => void): void {
    if (this.#done) release(this.#completed);
    else this.#releases.push(release);
  }

  /** @internal The route handler started. */
  handlerStarted(): void {
    this.#handlerRunning = true;
  }

  /** @internal The route handler settled: with its answer, or by throwing. */
  handlerSettled(answered: boolean): void {
    this.#handlerRunning = false;
    this.#completed = answered;
    this.#release();
  }

  /** @internal The response finished or the connection closed. */
  responseClosed(answered: boolean): void {
    if (!answered) this.#leaving.abort(new Error('The client closed the connection.'));
    if (!this.#handlerRunning) this.#release();
  }

  #release(): void {
    if (this.#done) return;
    this.#done = true;
    for (const release of this.#releases.splice(0)) release(this.#completed);
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request holds until it is done (see request-resources.ts). */
    resources: RequestResources;
  }
}

/** Give every request its RequestResources, and wrap every route handler so its end is known. */
export function installRequestResources(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const handler = route.handler as RouteHandlerMethod;
    route.handler = async function wrapped(this: FastifyInstance, request, reply) {
      request.resources.handlerStarted();
      let answered = false;
      try {
        const result: unknown = await handler.call(this, request, reply);
        answered = true;
        return result;
      } finally {
        request.resources.handlerSettled(answered);
      }
    };
  });
  app.addHook('onRequest', (request: FastifyRequest, reply, done) => {
    const resources = new RequestResources();
    request.resources = resources;
    reply.raw.once('close', () => {
      resources.responseClosed(reply.raw.writableFinished);
    });
    done();
  });
}
