/**
 * The project-management system's interface as 成本设置 keeps it (issue 16, roles 1 and 17): the mode
 * (simulator or http), the URL, the credential and the timeout, stored in cost_settings under 'pms'.
 * Without a stored setting the environment's (PMS_COST_*, integrations/pms) applies. The credential
 * never leaves the server: the view says only whether one is set, and a save without it keeps the
 * stored one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { OperationLogType, type CostPmsBody, type CostPmsView } from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { createPmsGateway, pmsConfigFromEnv, type PmsConfig } from '../../../integrations/pms/index.js';
import { refuse } from '../../../platform/envelope.js';
import '../tables.js';

type Db = Kysely<Database>;

/** cost_settings key of the stored interface (JSON StoredPms). */
export const PMS_SETTING_KEY = 'pms';
export interface StoredPms {
  mode: 'simulator' | 'http';
  url: string;
  /** The credential (never sent to the browser). */
  token: string;
  timeoutMs: number;
}

export async function storedPms(db: Db): Promise<StoredPms | null> {
  const r = await db.selectFrom('cost_settings').select('value').where('key', '=', PMS_SETTING_KEY).executeTakeFirst();
  if (!r) return null;
  const v = JSON.parse(r.value) as Partial<StoredPms>;
  return { mode: v.mode === 'http' ? 'http' : 'simulator', url: v.url ?? '', token: v.token ?? '', timeoutMs: v.timeoutMs ?? 15_000 };
}

const envConfig = (): PmsConfig | null => {
  try {
    return pmsConfigFromEnv();
  } catch {
    return null;
  }
};

/**
 * The gateway's configuration: the one 成本设置 stores, else the environment's. The simulator keeps the
 * environment's answer delay (PMS_COST_SIM_DELAY_MS). Throws (Chinese) when neither is complete.
 */
export async function pmsConfig(db: Db): Promise<PmsConfig> {
  const s = await storedPms(db);
  if (!s) {
    try {
      return pmsConfigFromEnv();
    } catch (e) {
      throw refuse(`项目管理系统接口配置不完整：${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (s.mode === 'http') return { mode: 'http', url: s.url, token: s.token, timeoutMs: s.timeoutMs };
  const env = envConfig();
  return { mode: 'simulator', delayMs: env?.mode === 'simulator' ? (env.delayMs ?? 0) : 0 };
}

export async function pmsView(db: Db): Promise<CostPmsView> {
  const s = await storedPms(db);
  if (s) return { mode: s.mode, url: s.url, timeoutMs: s.timeoutMs, tokenSet: !!s.token, source: 'setting' };
  const env = envConfig();
  const url = (process.env.PMS_COST_API_URL ?? '').trim();
  const mode = env?.mode ?? (url ? 'http' : 'simulator');
  return { mode, url: env?.url ?? url, timeoutMs: env?.timeoutMs ?? 15_000, tokenSet: !!(env?.token ?? (process.env.PMS_COST_API_TOKEN ?? '').trim()), source: 'env' };
}

/** A URL the server may call: http(s) with a host, nothing else. */
export function pmsUrlProblem(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return '接口地址格式不正确，应以 http:// 或 https:// 开头';
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return '接口地址须以 http:// 或 https:// 开头';
  if (!u.hostname) return '接口地址缺少主机名';
  if (u.username || u.password) return '接口地址不能包含用户名或密码，请在接口密钥中填写';
  return '';
}

export async function savePms(app: FastifyInstance, req: FastifyRequest, b: CostPmsBody): Promise<CostPmsView> {
  await app.db.kysely.transaction().execute(async (trx) => {
    const current = await storedPms(trx);
    const url = b.url.trim();
    // The credential typed now, else the one stored, else (first save) the environment's when it points at the same URL.
    let token = b.token.trim() || current?.token || '';
    if (!token && !current && b.mode === 'http') {
      const env = envConfig();
      if (env?.mode === 'http' && env.url === url) token = env.token ?? '';
    }
    if (b.mode === 'http') {
      if (!url) throw refuse('请填写项目管理系统接口地址');
      const problem = pmsUrlProblem(url);
      if (problem) throw refuse(problem);
      if (!token) throw refuse('请填写项目管理系统接口密钥');
    } else if (url) {
      const problem = pmsUrlProblem(url);
      if (problem) throw refuse(problem);
    }
    const stored: StoredPms = { mode: b.mode as StoredPms['mode'], url, token, timeoutMs: b.timeoutMs };
    const value = JSON.stringify(stored);
    await trx.insertInto('cost_settings').values({ key: PMS_SETTING_KEY, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
    const what = b.mode === 'http' ? `接口 ${url}（超时${b.timeoutMs}毫秒）${b.token.trim() ? '，密钥已更新' : '，密钥保留'}` : '模拟器';
    await app.oplog.record(req, OperationLogType.edit, `修改项目管理系统接口：${what}`, trx);
  });
  return pmsView(app.db.kysely);
}

/** Asks the configured PMS to answer a ping (at most 10 seconds). */
export async function testPms(app: FastifyInstance, req: FastifyRequest): Promise<{ ok: boolean; message: string }> {
  const config = await pmsConfig(app.db.kysely);
  const gateway = createPmsGateway({ db: app.db, synclog: app.synclog }, { ...config, timeoutMs: Math.min(config.timeoutMs ?? 15_000, 10_000) });
  try {
    const a = await gateway.ping({ userId: req.user?.id ?? null });
    return { ok: true, message: gateway.mode === 'http' ? `连接成功：${a.message}` : '连接成功（模拟器）' };
  } catch (e) {
    return { ok: false, message: `连接失败：${e instanceof Error ? e.message : String(e)}` };
  }
}
