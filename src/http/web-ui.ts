// Serves the web UI (web/dist, built by `npm run build:web`, which `npm install` runs) at /.
// Files are public: signing in happens in the page, through the API. Paths that are not
// files are the single-page app's own routes and get index.html; unknown API paths stay a
// JSON 404. Without a build, / says how to make one.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../core/api-prefix.js';
import { AppError } from '../errors.js';

/** Where `vite build` puts the UI. */
export const WEB_DIST = fileURLToPath(new URL('../../web/dist', import.meta.url));

export async function registerWebUi(app: FastifyInstance, root: string = WEB_DIST): Promise<void> {
  const built = existsSync(join(root, 'index.html'));
  if (built) await app.register(fastifyStatic, { root, serve: false });
  app.get('/*', { schema: { hide: true }, config: { public: true } }, async (req, reply) => {
    const path = req.url.split('?')[0]!;
    // The same answer as the API's own not-found handler.
    if (path === API_PREFIX || path.startsWith(`${API_PREFIX}/`)) throw new AppError('ResourceNotFound', `no route for ${req.method} ${path}`);
    if (!built) return reply.type('text/plain; charset=utf-8').send('The web UI is not built: run `npm run build:web` (npm install does it).\n');
    let file: string;
    try {
      file = decodeURIComponent(path).replace(/^\/+/, '');
    } catch {
      file = ''; // bad percent-encoding: not a file of ours
    }
    // Hashed assets never change: cache them for good; index.html always fresh.
    if (file.startsWith('assets/') && !file.includes('..') && existsSync(join(root, file))) {
      return reply.header('cache-control', 'public, max-age=31536000, immutable').sendFile(file, { cacheControl: false });
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
