/** Environment -> typed configuration. Every variable is documented in README.md ("Configuration"). */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { StorageConfig } from './platform/storage/common.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** apps/server/{src,dist} -> apps/web/dist */
const defaultWebDist = path.resolve(here, '../../web/dist');

const bool = z
  .enum(['0', '1', 'true', 'false', 'yes', 'no'])
  .transform((v) => v === '1' || v === 'true' || v === 'yes');

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  DEMO: bool.default(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().default(defaultWebDist),
  TRUST_PROXY: bool.default(false),
  LOGIN_RATE_LIMIT: z.coerce.number().int().min(1).default(20),
  WORKFLOW_BASE_URL: z.string().default(''),
  OA_API_BASE_URL: z.string().default('/sim/oa'),
  PMS_API_BASE_URL: z.string().default('/sim/pms'),
  OA_URL: z.string().default('/sim/oa/'),
  PMS_URL: z.string().default('/sim/pms/'),
  SISTER_SIMULATOR: bool.optional(),
  /** The simulated tax service's clock starts at this instant (integrations/tax/index.ts simulatorClockFromEnv); checked here, read there. */
  TAX_SIMULATOR_NOW: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/, 'must be an ISO instant such as 2026-11-05T02:00:00Z').refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO instant').optional(),
  NODE_ENV: z.string().default('production'),
  /** Where attachments and exports are kept (platform/storage): the data folder, or an S3-compatible store. */
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.string().url('must be a URL such as http://minio:9000').optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(true),
}).refine((e) => e.STORAGE_DRIVER !== 's3' || !!e.S3_BUCKET, { path: ['S3_BUCKET'], message: 'is required when STORAGE_DRIVER=s3' });

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** postgres://... switches to PostgreSQL; otherwise SQLite at DATA_DIR/platform.db */
  databaseUrl?: string;
  /** Load the demo company on first start. */
  demo: boolean;
  logLevel: string;
  webDist: string;
  trustProxy: boolean;
  /** Sign-in attempts per IP per minute. */
  loginRateLimit: number;
  /** Base URLs the web client uses for the workflow service and the sister systems. */
  workflowBaseUrl: string;
  oaApiBaseUrl: string;
  pmsApiBaseUrl: string;
  oaUrl: string;
  pmsUrl: string;
  /**
   * Serve the sister-system simulator (/sim/oa, /sim/pms): SISTER_SIMULATOR when set; otherwise
   * (undefined here) buildApp decides by the data: on when the database holds the demo company, off without.
   */
  sisterSimulator: boolean | undefined;
  production: boolean;
  /** platform/storage: the driver and, for s3, the store. */
  storage: StorageConfig;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, argv: string[] = process.argv.slice(2)): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const noDemo = argv.includes('--no-demo');
  const demo = noDemo ? false : e.DEMO;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL || undefined,
    demo,
    logLevel: e.LOG_LEVEL,
    webDist: path.resolve(e.WEB_DIST),
    trustProxy: e.TRUST_PROXY,
    loginRateLimit: e.LOGIN_RATE_LIMIT,
    workflowBaseUrl: e.WORKFLOW_BASE_URL,
    oaApiBaseUrl: e.OA_API_BASE_URL,
    pmsApiBaseUrl: e.PMS_API_BASE_URL,
    oaUrl: e.OA_URL,
    pmsUrl: e.PMS_URL,
    sisterSimulator: e.SISTER_SIMULATOR,
    production: e.NODE_ENV === 'production',
    storage: {
      driver: e.STORAGE_DRIVER,
      ...(e.STORAGE_DRIVER === 's3' && e.S3_BUCKET
        ? { s3: { endpoint: e.S3_ENDPOINT, region: e.S3_REGION, bucket: e.S3_BUCKET, accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY, forcePathStyle: e.S3_FORCE_PATH_STYLE } }
        : {}),
    },
  };
}
