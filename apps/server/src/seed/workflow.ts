/**
 * The workflow service's demo data: the company's templates, public notices, and about fifty instances
 * replayed through the engine over the last 30 days (drafts, running, returned, complete), so lists,
 * counts and the approvals chart are not empty. Deterministic: the seed's Rng drives every choice.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { demoId } from '../platform/ids.js';
import { WorkflowEngine } from '../modules/workflow/engine.js';
import type { Actor } from '../modules/workflow/engine-core.js';
import { OutcomeRegistry } from '../modules/workflow/outcomes.js';
import { wf } from '../modules/workflow/tables.js';
import { DEPARTMENTS, type DemoUser } from './company.js';
import type { SeedContext } from './context.js';
import type { Rng } from './rng.js';
import { demoForm } from './workflowForms.js';
import { templateSeeds } from './workflowTemplates.js';

const INSTANCES = 52;
const OPINIONS = ['同意', '同意，请按规定执行', '情况属实，同意', '已核对，同意', '同意，注意控制费用', '材料齐全，同意'];
const RETURN_REASONS = ['金额与附件不一致，请核对后重新提交', '请补充证明材料', '事由描述不清，请补充说明'];
const FLOW_WEIGHTS: Array<[string, number]> = [['QJ01', 5], ['FY01', 4], ['YY01', 3], ['HT01', 2], ['KP01', 2], ['TY01', 2]];

const NOTICES: Array<[string, string, string]> = [
  ['关于2026年元旦放假安排的通知', '行政通知', '根据国务院办公厅通知，2026年1月1日至3日放假调休，共3天。请各部门做好节前安全检查和值班安排。'],
  ['财务部关于年终费用报销截止时间的通知', '财务通知', '2026年度费用报销请于12月20日前提交审批，逾期将计入下一年度。报销单据须附合规发票。'],
  ['数电发票全面推行后的开票注意事项', '财务通知', '自即日起销项发票统一开具数电票。开票申请须准确填写购买方税号，开票明细合计须与开票金额一致。'],
  ['综合运营支撑平台流程中心上线公告', '系统公告', '请假、用印、合同、开票、费用报销等审批统一在平台“发起申请”中办理，待办事项在“我的待办”中处理。'],
  ['冬季安全生产检查的通知', '安全生产', '各项目部须于本月底前完成冬季施工安全自查，重点检查用电、消防及防滑措施，并将自查表报工程管理部。'],
];

function pickWeighted(rng: Rng): string {
  const total = FLOW_WEIGHTS.reduce((s, [, w]) => s + w, 0);
  let n = rng.int(1, total);
  for (const [flow, w] of FLOW_WEIGHTS) if ((n -= w) <= 0) return flow;
  return 'QJ01';
}

function actorOf(u: DemoUser): Actor {
  return { id: u.id, name: u.name, roles: u.roles, deptId: demoId(`dept:${u.dept}`), deptName: DEPARTMENTS.find((d) => d.key === u.dept)?.name ?? '' };
}

export async function insertTemplates(db: Kysely<Database>, users: readonly DemoUser[], at: string): Promise<void> {
  for (const [i, t] of templateSeeds(users).entries()) {
    await wf(db)
      .insertInto('wf_templates')
      .values({
        id: demoId(`wf-template:${t.flowNo}:1`),
        flow_no: t.flowNo,
        version: 1,
        is_current: 1,
        enabled: 1,
        name: t.name,
        category: t.category,
        description: t.description,
        record_type: t.recordType,
        sort: i,
        definition: JSON.stringify(t.definition),
        created_at: at,
      })
      .execute();
  }
}

async function insertNotices(db: Kysely<Database>, users: readonly DemoUser[], now: Date): Promise<void> {
  const publisher = users.find((u) => u.loginName === 'demo3') ?? users[0]!;
  for (const [i, [title, column, content]] of NOTICES.entries()) {
    const at = new Date(now.getTime() - (NOTICES.length - i) * 3 * 86400_000).toISOString();
    await wf(db)
      .insertInto('wf_notices')
      .values({ id: demoId(`wf-notice:${i}`), title, column_name: column, content, state: 1, publisher_id: publisher.id, publisher_name: publisher.name, published_at: at, created_at: at, updated_at: at })
      .execute();
  }
}

/** A small stand-in document uploaded by the starter. */
async function demoAttachment(db: Kysely<Database>, owner: DemoUser, name: string, key: string, at: string) {
  const text = `%PDF-1.4\n% ${name}\n% 演示附件，由演示数据生成\n`;
  const content = Buffer.from(text, 'utf8');
  const id = demoId(`wf-file:${key}`);
  await wf(db)
    .insertInto('wf_attachments')
    .values({ id, sha256: createHash('sha256').update(content).digest('hex'), name, mime: 'application/pdf', size: content.length, uploader_id: owner.id, work_id: null, content: content.toString('base64'), created_at: at })
    .execute();
  return { id, name, size: content.length };
}

/** Replays one instance's history through the engine. */
async function replay(engine: WorkflowEngine, db: Kysely<Database>, ctx: { rng: Rng; users: DemoUser[]; byId: Map<string, DemoUser>; clock: { t: number }; limit: number }, i: number) {
  const { rng } = ctx;
  // The general manager has nobody above them for a department-manager step.
  const staff = ctx.users.filter((u) => u.loginName !== 'admin' && u.dept !== 'company');
  const starter = rng.pick(staff);
  const flowNo = pickWeighted(rng);
  const { title, form } = demoForm(flowNo, starter, rng, new Date(ctx.clock.t));
  if (Array.isArray(form.files)) form.files = [await demoAttachment(db, starter, `${title}.pdf`, `demo-${i}`, new Date(ctx.clock.t).toISOString())];
  const step = () => (ctx.clock.t = Math.min(ctx.limit, ctx.clock.t + rng.int(20, 600) * 60_000));
  const fate = rng.next();
  if (fate < 0.08) {
    await engine.saveDraft(actorOf(starter), { flowNo, title, form }, db);
    return;
  }
  const chosen = flowNo === 'TY01' ? [rng.pick(staff.filter((u) => u.id !== starter.id && u.position.match(/部长|主任|经理|总/))).id] : undefined;
  const { workId } = await engine.start(actorOf(starter), { flowNo, title, form, toUserIds: chosen }, db);
  const moves = i % 7 === 0 ? 1 : rng.int(0, 5);
  for (let m = 0; m < moves; m++) {
    step();
    const open = await wf(db).selectFrom('wf_work_items').select(['handler_id', 'node_id']).where('work_id', '=', workId).where('state', '=', 0).orderBy('handler_name').execute();
    if (open.length === 0) return;
    const who = ctx.byId.get(open[0]!.handler_id);
    if (!who) return;
    const atStart = open[0]!.node_id === 'start';
    if (!atStart && rng.chance(0.1)) {
      await engine.returnTo(actorOf(who), { workId, toNodeId: 'start', reason: rng.pick(RETURN_REASONS) }, db);
      continue;
    }
    await engine.send(actorOf(who), { workId, opinion: atStart ? '已补充，重新提交' : rng.pick(OPINIONS) }, db);
  }
}

export async function seedWorkflow(ctx: SeedContext): Promise<void> {
  const at = new Date(ctx.now.getTime() - 60 * 86400_000).toISOString();
  await insertTemplates(ctx.db, ctx.users, at);
  await insertNotices(ctx.db, ctx.users, ctx.now);
  const clock = { t: ctx.now.getTime() - 30 * 86400_000 };
  const limit = ctx.now.getTime() - 10 * 60_000;
  const engine = new WorkflowEngine({ kysely: ctx.db, dialect: 'sqlite', close: async () => undefined }, new OutcomeRegistry(), () => new Date(clock.t));
  const byId = new Map(ctx.users.map((u) => [u.id, u]));
  for (let i = 0; i < INSTANCES; i++) {
    // Instances start spread over the last 30 days, in order.
    clock.t = ctx.now.getTime() - Math.round(((INSTANCES - i) / INSTANCES) * 30 * 86400_000) + ctx.rng.int(0, 600) * 60_000;
    clock.t = Math.min(clock.t, limit);
    await replay(engine, ctx.db, { rng: ctx.rng, users: ctx.users, byId, clock, limit }, i);
  }
}
