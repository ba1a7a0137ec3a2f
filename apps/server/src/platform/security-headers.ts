/**
 * The security headers (CSP, nosniff, frame options, HSTS, referrer policy, ...) on every answer of
 * every status. They are set by the first onRequest hook of the server, before the permission guard
 * or any other hook can refuse, and by the framework-error answer (bad URL encoding), which runs no
 * hooks at all. Headers set on the raw response survive whatever the error handler sends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Writes the security headers onto a raw response. */
    securityHeaders(req: IncomingMessage, res: ServerResponse): void;
  }
}

function originOf(url: string): string | null {
  try {
    return /^https?:\/\//.test(url) ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

export function installSecurityHeaders(app: FastifyInstance, config: Config): void {
  const outside = [config.workflowBaseUrl, config.oaApiBaseUrl, config.pmsApiBaseUrl].map(originOf).filter((o): o is string => !!o);
  const apply = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        formAction: ["'self'"],
        scriptSrc: ["'self'"],
        // antd's CSS-in-JS injects <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", ...outside],
        frameSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
      },
    },
    // The API docs page loads its own inline bootstrap script.
    crossOriginEmbedderPolicy: false,
  });
  // The headers depend on nothing in the request (no nonces): work them out once, not on every answer.
  const headers = fixedHeaders(apply);
  app.decorate('securityHeaders', (_req: IncomingMessage, res: ServerResponse) => {
    res.removeHeader('X-Powered-By');
    for (const [name, value] of headers) res.setHeader(name, value);
  });
  app.addHook('onRequest', (req, reply, done) => {
    app.securityHeaders(req.raw, reply.raw);
    done();
  });
}

/**
 * The headers that only mean something on a document (a page, the API docs, a file opened in a
 * tab): the page's CSP, framing, opener and referrer rules, HSTS (the browser took it from the page)
 * and the legacy IE ones. A hashed script or stylesheet runs under the CSP of the page that loads it
 * (the client starts no workers), so sending them with each of the 60-odd files of a first load was
 * about 700 bytes a file, 45 KiB of the /dashboard first load (issue 11). nosniff and
 * Cross-Origin-Resource-Policy stay: they guard the file itself.
 */
export const DOCUMENT_ONLY_HEADERS = [
  'Content-Security-Policy',
  'Cross-Origin-Opener-Policy',
  'Origin-Agent-Cluster',
  'Referrer-Policy',
  'Strict-Transport-Security',
  'X-DNS-Prefetch-Control',
  'X-Download-Options',
  'X-Frame-Options',
  'X-Permitted-Cross-Domain-Policies',
  'X-XSS-Protection',
] as const;

/** Leaves a hashed script or stylesheet of the web build with only the headers that apply to it. */
export function trimAssetHeaders(res: ServerResponse): void {
  for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
}

/** The headers helmet writes, read once from a stand-in response. */
function fixedHeaders(apply: ReturnType<typeof helmet>): [string, string][] {
  const set: [string, string][] = [];
  const res = { setHeader: (name: string, value: string) => void set.push([name, String(value)]), removeHeader: () => undefined };
  apply({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return set;
}
