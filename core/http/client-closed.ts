import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Status recorded for a request whose client went away before the answer (nginx's "client closed request"). */
export const CLIENT_CLOSED_STATUS = 499;

/** True when the client closed the connection before its request was read in full or answered. */
export function clientClosed(request: FastifyRequest): boolean {
  const raw = request.raw;
  return (raw.destroyed && !raw.complete) || (raw.socket as Socket | null)?.destroyed === true;
}

/**
 * Record a request its client abandoned as what it was: no answer can be delivered, the audit row says 499
 * with reason client_closed, and nothing is logged as an error of the server.
 */
export function markClientClosed(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  request.idv.clientClosed = true;
  request.idv.reason = 'client_closed';
  request.log.info('client closed the connection before the answer');
  return reply.code(CLIENT_CLOSED_STATUS).send({
    status: 'ERROR',
    code: 'CLIENT_CLOSED',
    message: 'The client closed the connection before the answer.',
    request_id: request.id,
  });
}
