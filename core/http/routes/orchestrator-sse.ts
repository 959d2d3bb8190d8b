import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EventFeed } from '../../services/outbox/event-feed.js';

/** Seconds between SSE comment lines that keep proxies from closing an idle stream. */
const KEEP_ALIVE_MS = 15_000;

/** The cursor an SSE client resumes from: Last-Event-ID, else `?after=`, else only new events. */
export async function sseStartCursor(request: FastifyRequest, feed: EventFeed): Promise<number> {
  const header = request.headers['last-event-id'];
  const lastId = Array.isArray(header) ? header[0] : header;
  if (lastId !== undefined && /^\d+$/.test(lastId)) return Number(lastId);
  const after = (request.query as { after?: string } | undefined)?.after;
  return after === undefined ? feed.head() : Number(after);
}

/**
 * Stream the feed as Server-Sent Events (`id:` = outbox position, `event: verification`, `data:` = the event JSON)
 * until the client leaves or `closing` aborts (server shutdown). Reads only from the outbox: no images exist there.
 */
export async function streamEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  feed: EventFeed,
  closing: AbortSignal,
): Promise<void> {
  let cursor = await sseStartCursor(request, feed);
  reply.hijack();
  const out = reply.raw;
  out.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  out.write('retry: 3000\n\n');
  let draining = false;
  // One read at a time: a commit during a read asks for another pass instead of a second, overlapping read.
  let reading = false;
  let again = false;
  const pass = async (): Promise<void> => {
    for (;;) {
      const page = await feed.read(cursor, 100);
      if (page.events.length === 0 || out.writableEnded) return;
      let text = '';
      page.events.forEach((event, index) => {
        text += `id: ${page.positions[index]!}\nevent: verification\ndata: ${JSON.stringify(event)}\n\n`;
      });
      cursor = page.cursor;
      if (!out.write(text)) {
        draining = true;
        out.once('drain', () => {
          draining = false;
          flush();
        });
        return;
      }
    }
  };
  const flush = (): void => {
    if (draining || out.writableEnded) return;
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    again = false;
    pass()
      .catch(() => {
        // The store went away (server closing): end the stream; the client resumes from its Last-Event-ID.
        end();
      })
      .finally(() => {
        reading = false;
        if (again) flush();
      });
  };
  const keepAlive = setInterval(() => out.write(': keep-alive\n\n'), KEEP_ALIVE_MS);
  const unsubscribe = feed.subscribe(flush);
  const end = (): void => {
    clearInterval(keepAlive);
    unsubscribe();
    closing.removeEventListener('abort', end);
    if (!out.writableEnded) out.end();
  };
  out.on('close', end);
  closing.addEventListener('abort', end, { once: true });
  if (closing.aborted) end();
  else flush();
}
