/**
 * The permission guard. `onRoute` refuses to register a route without an access rule (so none can be
 * added without one) and records it in the route catalogue; `onRequest` authenticates X-Token and
 * checks the rule before the body is even parsed.
 */
import type { FastifyInstance } from 'fastify';
import { TOKEN_HEADER, canAccessAny } from '@zhyy/shared';
import { PUBLIC } from './access.js';
import { forbidden, mustChangePassword, tokenInvalid } from './envelope.js';

/** Routes added by plugins (the web client's static files, the API docs) are public by nature. */
const PLUGIN_PUBLIC_EXACT = new Set(['/*', '/']);
const PLUGIN_PUBLIC_PREFIX = '/api/docs';

function isPluginPublic(url: string): boolean {
  return PLUGIN_PUBLIC_EXACT.has(url) || url === PLUGIN_PUBLIC_PREFIX || url.startsWith(`${PLUGIN_PUBLIC_PREFIX}/`);
}

export function installGuard(app: FastifyInstance): void {
  app.decorate('routeCatalog', []);
  app.decorateRequest('user', null);

  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as { access?: typeof PUBLIC };
    if (!config.access) {
      const url = route.url;
      if (isPluginPublic(url)) {
        route.config = { ...config, access: PUBLIC } as typeof route.config;
      } else {
        throw new Error(`Route ${String(route.method)} ${url} declares no access rule (config.access)`);
      }
    }
    const access = (route.config as { access: typeof PUBLIC }).access;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const m of methods) if (m !== 'HEAD') app.routeCatalog.push({ method: m, url: route.url, access });
  });

  app.addHook('onRequest', async (req) => {
    const access = req.routeOptions.config?.access;
    if (!access || access.kind === 'public') return;
    const header = req.headers[TOKEN_HEADER.toLowerCase()];
    const token = Array.isArray(header) ? header[0] : header;
    const user = await app.sessions.resolve(token);
    if (!user) throw tokenInvalid(await app.sessions.rejection(token));
    req.user = user;
    const initialOk = access.kind === 'signedIn' && access.allowInitialPassword;
    if (user.mustChangePassword && !initialOk) throw mustChangePassword();
    if (access.kind === 'pages' && !canAccessAny(user.roles, access.requirements)) throw forbidden();
  });
}
