import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { rendererDir } from '../../../assets/assets.js';

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>IDV Console</title></head>
<body style="font-family: system-ui, sans-serif; margin: 3rem; color: #1f2937">
<h1>IDV Console is not built</h1>
<p>The API is running. To use the operator console, build it with <code>npm run build:renderer</code> and restart the server.</p>
</body></html>`;

function markUnaudited(request: { idv?: { audited: boolean } }): void {
  if (request.idv) request.idv.audited = false;
}

/**
 * Serve the console at `/` from the built renderer with an SPA fallback (unknown non-API GETs get index.html); when the
 * console is not built, `/` says how to build it.
 */
export async function registerStaticAssets(app: FastifyInstance, dist = rendererDir()): Promise<void> {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    app.get('/', async (request, reply) => {
      markUnaudited(request);
      return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    });
    return;
  }
  await app.register(fastifyStatic, { root: dist, prefix: '/', wildcard: false, index: ['index.html'] });
  const spaRoutes = ['/enroll', '/verify', '/keys', '/audit', '/settings', '/users', '/login'];
  for (const route of spaRoutes) {
    app.get(route, async (request, reply) => {
      markUnaudited(request);
      return reply.sendFile('index.html');
    });
  }
}
