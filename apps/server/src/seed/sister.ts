/** Pending items in the two sister systems (OA and project management) for the demo staff. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { demoId } from '../platform/ids.js';
import type { DemoUser } from './company.js';
import type { Rng } from './rng.js';

const OA_TITLES = ['关于{x}的请示', '{x}会议纪要会签', '{x}用车申请', '{x}公文传阅', '{x}请假审批', '{x}采购申请'];
const PMS_TITLES = ['{x}项目周报审核', '{x}进度计划调整', '{x}安全检查整改', '{x}质量验收确认', '{x}变更签证'];
const SUBJECTS = ['年度预算', '办公用品', '城南污水处理厂', '滨江大道改造', '第三季度', '信息化建设', '绿色施工', '地铁5号线', '产业园二期', '消防改造'];

export async function insertSisterTodos(db: Kysely<Database>, users: DemoUser[], rng: Rng, now: Date): Promise<number> {
  const rows: Database['sister_todos'][] = [];
  for (const u of users) {
    // Most people have a few; some have more than nine, so the 9+ cap shows.
    const counts = { oa: rng.chance(0.2) ? rng.int(10, 14) : rng.int(0, 6), pms: rng.chance(0.4) ? rng.int(1, 5) : 0 };
    for (const system of ['oa', 'pms'] as const) {
      const titles = system === 'oa' ? OA_TITLES : PMS_TITLES;
      for (let i = 0; i < counts[system]; i++) {
        rows.push({
          id: demoId(`sister:${system}:${u.loginName}:${i}`),
          system,
          login_name: u.loginName,
          title: rng.pick(titles).replace('{x}', rng.pick(SUBJECTS)),
          done: 0,
          created_at: new Date(now.getTime() - rng.int(1, 20 * 24) * 3600_000).toISOString(),
        });
      }
    }
  }
  for (let i = 0; i < rows.length; i += 200) await db.insertInto('sister_todos').values(rows.slice(i, i + 200)).execute();
  return rows.length;
}
