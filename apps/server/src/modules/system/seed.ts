/**
 * Demo data of system administration: a month of sign-in history (sessions that ended, from the
 * staff's usual cities, now and then from another one or from the office network) and calls of
 * the recognition service. Uses its own seeded generator so the other areas' demo data stay as they are.
 */
import crypto from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { demoId } from '../../platform/ids.js';
import { shanghaiDay } from '../../platform/listing.js';
import { Rng } from '../../seed/rng.js';
import type { SeedContext } from '../../seed/context.js';
import type { DemoUser } from '../../seed/company.js';
import './tables.js';

/** Public addresses of a few cities (resolved by the offline IP database at read time). */
const CITY_IPS = {
  guangzhou: '202.96.128.86',
  shenzhen: '58.60.1.1',
  beijing: '61.135.169.121',
  shanghai: '116.228.111.118',
  nanjing: '114.114.114.114',
  ningbo: '221.12.33.1',
} as const;
const HOME: Array<keyof typeof CITY_IPS> = ['guangzhou', 'guangzhou', 'guangzhou', 'shenzhen', 'shenzhen'];
const TRIPS: Array<keyof typeof CITY_IPS> = ['beijing', 'shanghai', 'nanjing', 'ningbo'];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0',
];
const DAY = 24 * 3600_000;
const SHANGHAI_OFFSET_MS = 8 * 3600_000;

/** A working-hours instant (08:00–18:59 Asia/Shanghai) `daysAgo` days before `now`, never in the future. */
function officeHour(now: Date, daysAgo: number, rng: Rng): Date {
  const local = now.getTime() + SHANGHAI_OFFSET_MS - daysAgo * DAY;
  const dayStart = local - (local % DAY);
  const at = dayStart - SHANGHAI_OFFSET_MS + rng.int(8, 18) * 3600_000 + rng.int(0, 59) * 60_000;
  return new Date(Math.min(at, now.getTime() - rng.int(1, 120) * 60_000));
}

async function seedSignIns(db: Kysely<Database>, users: DemoUser[], rng: Rng, now: Date): Promise<void> {
  const sessions: Database['sessions'][] = [];
  const logs: Database['operation_logs'][] = [];
  const staff = users.filter((u) => u.loginName !== 'admin' && !u.loginName.startsWith('demo')).slice(0, 24);
  for (const u of staff) {
    const home = CITY_IPS[rng.pick(HOME)];
    const trip = CITY_IPS[rng.pick(TRIPS)];
    const count = rng.int(3, 8);
    for (let i = 0; i < count; i++) {
      const at = officeHour(now, 30 - Math.floor((i * 28) / count), rng);
      const ip = i > 0 && rng.chance(0.12) ? trip : i > 0 && rng.chance(0.15) ? `192.168.${rng.int(1, 20)}.${rng.int(2, 250)}` : home;
      const id = demoId(`signin:${u.loginName}:${i}`);
      const ended = new Date(at.getTime() + rng.int(20, 300) * 60_000).toISOString();
      sessions.push({
        id,
        token_hash: crypto.createHash('sha256').update(`demo-expired:${id}`).digest('hex'),
        user_id: u.id,
        ip,
        user_agent: rng.pick(AGENTS),
        created_at: at.toISOString(),
        expires_at: new Date(at.getTime() + 7 * DAY).toISOString(),
        last_seen_at: ended,
        revoked_at: ended,
        revoked_reason: 'logout',
      });
      logs.push({ id: demoId(`signin-log:${id}`), user_id: u.id, login_name: u.loginName, user_name: u.name, type: 1, description: '登录系统', ip, created_at: at.toISOString() });
    }
  }
  for (let i = 0; i < sessions.length; i += 100) await db.insertInto('sessions').values(sessions.slice(i, i + 100)).execute();
  const last = new Map<string, string>();
  for (const x of sessions) if ((last.get(x.user_id) ?? '') < x.created_at) last.set(x.user_id, x.created_at);
  for (const [userId, at] of last) await db.updateTable('users').set({ last_login_at: at }).where('id', '=', userId).execute();
  for (let i = 0; i < logs.length; i += 100) await db.insertInto('operation_logs').values(logs.slice(i, i + 100)).execute();
}

const AI_FAILURES = ['识别超时', '文件不是有效的发票图像', '图像模糊，无法识别发票代码'];

async function seedAiCalls(db: Kysely<Database>, users: DemoUser[], rng: Rng, now: Date): Promise<void> {
  const callers = users.filter((u) => u.roles.some((r) => ['5', '12', '13', '14', '16'].includes(r)));
  if (!callers.length) return;
  const rows: Database['ai_call_logs'][] = [];
  for (let day = 29; day >= 0; day--) {
    const n = rng.int(2, 9);
    for (let i = 0; i < n; i++) {
      const at = officeHour(now, day, rng);
      const u = rng.pick(callers);
      const iface = rng.chance(0.7) ? 'invoice-ocr' : rng.pick(['invoice-verify', 'contract-ocr', 'certificate-ocr']);
      const success = !rng.chance(0.07);
      rows.push({
        id: demoId(`ai:${day}:${i}`),
        interface_code: iface,
        user_id: u.id,
        login_name: u.loginName,
        user_name: u.name,
        success: success ? 1 : 0,
        duration_ms: success ? rng.int(700, 3800) : rng.int(3000, 15000),
        message: success ? '' : rng.pick(AI_FAILURES),
        file_name: `${iface === 'invoice-ocr' ? '发票' : '附件'}${rng.int(10000, 99999)}.pdf`,
        day: shanghaiDay(at),
        created_at: at.toISOString(),
      });
    }
  }
  for (let i = 0; i < rows.length; i += 100) await db.insertInto('ai_call_logs').values(rows.slice(i, i + 100)).execute();
}

export async function seedSystem(ctx: SeedContext): Promise<void> {
  const rng = new Rng(20261104);
  await seedSignIns(ctx.db, ctx.users, rng, ctx.now);
  await seedAiCalls(ctx.db, ctx.users, rng, ctx.now);
}
