/** GET /api/public/config: base URLs of the workflow, OA and PMS services and the navbar link targets. */
import type { PublicConfig } from '@zhyy/shared';

export type { PublicConfig };

export const DEFAULT_CONFIG: PublicConfig = {
  workflowBaseUrl: '',
  oaApiBaseUrl: '',
  pmsApiBaseUrl: '',
  oaUrl: '',
  pmsUrl: '',
  oaName: 'OA系统',
  pmsName: '项目管理系统',
};

let config: PublicConfig = DEFAULT_CONFIG;

export function publicConfig(): PublicConfig {
  return config;
}

function stripSlash(url: unknown): string {
  return typeof url === 'string' ? url.replace(/\/+$/, '') : '';
}

/** Merges an answer over the defaults, keeping only string fields. */
export function normaliseConfig(raw: unknown): PublicConfig {
  const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (k: 'oaUrl' | 'pmsUrl' | 'oaName' | 'pmsName') => (typeof r[k] === 'string' && r[k] !== '' ? (r[k] as string) : DEFAULT_CONFIG[k]);
  return {
    workflowBaseUrl: stripSlash(r.workflowBaseUrl),
    oaApiBaseUrl: stripSlash(r.oaApiBaseUrl),
    pmsApiBaseUrl: stripSlash(r.pmsApiBaseUrl),
    oaUrl: text('oaUrl'),
    pmsUrl: text('pmsUrl'),
    oaName: text('oaName'),
    pmsName: text('pmsName'),
  };
}

/** Loaded once at start-up; a failure keeps the defaults (same-origin workflow, no sister systems). */
export async function loadPublicConfig(fetchImpl: typeof fetch = fetch): Promise<PublicConfig> {
  try {
    const res = await fetchImpl('/api/public/config', { method: 'GET' });
    const body = (await res.json()) as { code?: number; r?: unknown };
    if (body.code === 20000) config = normaliseConfig(body.r);
  } catch {
    // Start with the defaults.
  }
  return config;
}

let ready: Promise<PublicConfig> = Promise.resolve(config);

/**
 * Starts loading the configuration without waiting for it (main.tsx, issue 30): the sign-in page, which
 * uses none of it, is drawn at once; the root loader waits for it before any other page
 * (`publicConfigReady`).
 */
export function startPublicConfig(fetchImpl: typeof fetch = fetch): Promise<PublicConfig> {
  ready = loadPublicConfig(fetchImpl);
  return ready;
}

/** Resolves once the configuration started by `startPublicConfig` has answered or failed (at once if none was started). */
export function publicConfigReady(): Promise<PublicConfig> {
  return ready;
}
