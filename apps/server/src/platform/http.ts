/** The API docs, and the web client with history-mode fallback. (Security headers: security-headers.ts; request limits: rate-limit.ts.) */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { Messages, ResponseCode } from '@zhyy/shared';
import type { Config } from '../config.js';
import { PUBLIC } from './access.js';
import { trimAssetHeaders } from './security-headers.js';

export async function installDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: '综合运营支撑平台 API', description: 'Every call answers { code, message?, r? }; 20000 is success.', version: '1' },
      components: { securitySchemes: { token: { type: 'apiKey', in: 'header', name: 'X-Token' } } },
      security: [{ token: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
}

/** The build id of the web client (its build writes version.json), or null when it is not built. */
export function readClientVersion(webDist: string): string | null {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(webDist, 'version.json'), 'utf8')) as { version?: unknown };
    if (typeof v.version === 'string' && v.version) return v.version;
  } catch {
    /* not built */
  }
  return null;
}

/** The build id at start-up: the web client's, or one for this server process. */
export function readBuildId(webDist: string): string {
  return readClientVersion(webDist) ?? `server-${Date.now().toString(36)}-${crypto.randomBytes(3).toString('hex')}`;
}

/** A script or stylesheet the web build names by its content hash (dist/assets/name-hash.js|css). */
function isHashedAsset(file: string): boolean {
  return file.includes(`${path.sep}assets${path.sep}`) && /\.(js|css)(\.br|\.gz)?$/.test(file);
}

export async function installWebClient(app: FastifyInstance, config: Config): Promise<void> {
  app.get('/version.json', { config: { access: PUBLIC }, schema: { hide: true } }, async (_req, reply) => {
    reply.header('Cache-Control', 'no-store');
    // Read on every request: a new build dropped into WEB_DIST is announced without a restart.
    return { version: readClientVersion(config.webDist) ?? app.buildId };
  });

  const indexFile = path.join(config.webDist, 'index.html');
  const hasClient = fs.existsSync(indexFile);
  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      index: 'index.html',
      // The build writes .br and .gz copies (apps/web/vite-compress.ts); the one the browser accepts is sent.
      preCompressed: true,
      // Whole files only: a script, a stylesheet or the page is never fetched in parts.
      acceptRanges: false,
      setHeaders(reply, file) {
        // Hashed file names never change content; index.html and version.json must be asked for every time.
        if (isHashedAsset(file)) {
          reply.header('Cache-Control', 'public, max-age=31536000, immutable');
          // Never revalidated, so no validators; and none of the page-only security headers.
          reply.removeHeader('etag');
          reply.removeHeader('last-modified');
          trimAssetHeaders(reply.raw);
        } else reply.header('Cache-Control', 'no-cache');
      },
    });
  }

  app.setNotFoundHandler(async (req, reply) => {
    const url = req.url.split('?')[0] ?? '';
    const wantsPage = req.method === 'GET' && !url.startsWith('/api/') && !path.extname(url);
    // History-mode fallback: index.html (read from disk every time, so a new build is served at once), compressed when accepted.
    if (wantsPage && hasClient && fs.existsSync(indexFile)) return reply.type('text/html; charset=utf-8').sendFile('index.html');
    if (wantsPage) {
      return reply.code(404).type('text/plain; charset=utf-8').send('综合运营支撑平台：网页端尚未构建，请运行 npm start（会先构建网页端）。');
    }
    return reply.code(404).send({ code: ResponseCode.businessError, message: Messages.notFound });
  });
}
