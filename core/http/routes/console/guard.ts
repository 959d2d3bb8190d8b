import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { CoreError } from '../../../errors.js';
import type { ConsoleRole, ConsoleUser } from '../../../services/console/accounts.js';
import { SESSION_COOKIE, type ConsoleSessions } from '../../../services/console/sessions.js';
import { readCookie } from './cookies.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in console account of a /api/console request, when its session cookie is valid. */
    consoleUser?: ConsoleUser;
  }
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Hostname part of a Host header value ("[::1]:8787" → "[::1]", "a.b:80" → "a.b"). */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  return (host.split(':')[0] ?? '').toLowerCase();
}

/**
 * True when the Host header names this server: a loopback name, or the very address the connection arrived on
 * (so a LAN bind works by IP). Any other name — e.g. an attacker's domain re-bound to 127.0.0.1 — is refused.
 */
export function isOwnHost(
  host: string | undefined,
  localAddress: string | undefined,
  boundHost?: string,
): boolean {
  if (!host) return false;
  const name = hostnameOf(host);
  if (LOOPBACK_HOSTS.has(name)) return true;
  if (boundHost && !['0.0.0.0', '::', '[::]'].includes(boundHost) && name === boundHost.toLowerCase())
    return true;
  if (!localAddress) return false;
  const local = localAddress.replace(/^::ffff:/, '').toLowerCase();
  return name === local || name === `[${local}]`;
}

/**
 * Every /api/console request: API keys are refused (the console uses its own session), the Host must be this
 * server's and a browser Origin must be that same host; then the session cookie, if any, is resolved.
 */
export function consoleGuard(sessions: ConsoleSessions, boundHost: () => string) {
  return async function guard(request: FastifyRequest): Promise<void> {
    try {
      checkRequest(request, boundHost());
    } catch (error) {
      request.idv.audited = true;
      request.idv.event = 'console.refused';
      throw error;
    }
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    const user = token ? await sessions.resolve(token) : undefined;
    if (user) request.consoleUser = user;
  };
}

function checkRequest(request: FastifyRequest, boundHost: string): void {
  if (request.headers['x-api-key'] !== undefined) {
    throw new CoreError(
      'FORBIDDEN',
      'Console routes do not accept API keys; sign in to the console instead.',
    );
  }
  const host = request.headers.host;
  if (!isOwnHost(host, request.socket.localAddress, boundHost)) {
    throw new CoreError('FORBIDDEN', 'The Host header does not name this server.');
  }
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${host}` && origin !== `https://${host}`) {
    throw new CoreError('FORBIDDEN', 'Cross-origin requests to the console are refused.');
  }
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') {
    throw new CoreError('FORBIDDEN', 'Cross-site requests to the console are refused.');
  }
}

/** preHandler that requires a signed-in account with one of `roles` (401 without a session, 403 for another role). */
export function requireRole(...roles: ConsoleRole[]) {
  return function checkRole(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const user = request.consoleUser;
    if (!user) done(new CoreError('UNAUTHORIZED', 'Sign in to the console first.'));
    else if (!roles.includes(user.role))
      done(new CoreError('FORBIDDEN', `This action needs the ${roles.join(' or ')} role.`));
    else done();
  };
}

/** The signed-in account of a request that passed `requireRole`. */
export function userOf(request: FastifyRequest): ConsoleUser {
  if (!request.consoleUser) throw new CoreError('UNAUTHORIZED', 'Sign in to the console first.');
  return request.consoleUser;
}

/** The console session acts as the caller: audited as `console:<username>`, never with an API key. */
export function actAsConsole(request: FastifyRequest): void {
  request.idv.keyId = `console:${userOf(request).username}`;
  request.idv.authOutcome = 'console';
  request.idv.audited = true;
}
