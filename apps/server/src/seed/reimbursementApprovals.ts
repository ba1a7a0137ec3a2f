/**
 * The demo reimbursements' approvals (seed/reimbursement.ts): the last days' bills go through approval as
 * real FY01 instances started through the workflow engine (record_type reimbursement, record_id the bill),
 * their form filled from the template's current definition (fy01Form), some of them moved on a step or two.
 */
import { FlowState, ReimbFlowState, ReimbState, type FieldBase, type FlowDefinition } from '@zhyy/shared';
import type { ReimbBillTable, ReimbLineTable } from '../modules/reimbursement/tables.js';
import { WorkflowEngine } from '../modules/workflow/engine.js';
import type { Actor } from '../modules/workflow/engine-core.js';
import { OutcomeRegistry } from '../modules/workflow/outcomes.js';
import { wf } from '../modules/workflow/tables.js';
import { demoId } from '../platform/ids.js';
import { DEPARTMENTS, type DemoUser } from './company.js';
import type { SeedContext } from './context.js';
import { formCategoryOf } from './reimbursementData.js';
import type { BillSpec } from './reimbursementSpecs.js';
import type { Rng } from './rng.js';

const actorOf = (u: DemoUser): Actor => ({ id: u.id, name: u.name, roles: u.roles, deptId: demoId(`dept:${u.dept}`), deptName: DEPARTMENTS.find((d) => d.key === u.dept)?.name ?? '' });

const clip = (v: string, f: FieldBase) => (f.maxLength ? v.slice(0, f.maxLength) : v);
/**
 * The FY01 form of a bill, filled from the template's current definition (so a changed form still gets
 * its values): the known keys (reason, period, project, payee, bankAccount, lines, amount, files), then
 * every other field by its type.
 */
export function fy01Form(def: FlowDefinition, b: ReimbBillTable, ls: ReimbLineTable[], u: DemoUser): Record<string, unknown> {
  const total = ls.reduce((a, l) => a + l.amount, 0);
  const deptId = demoId(`dept:${u.dept}`);
  const scalar = (f: FieldBase & { type: string }, l?: ReimbLineTable): unknown => {
    switch (f.type) {
      case 'text':
      case 'textarea':
        return clip(l ? l.description || l.category_name : f.key === 'payee' ? b.payee_name : f.key === 'bankAccount' ? b.payee_account : f.key === 'project' ? b.project_name : f.key === 'billNo' ? b.bill_no : b.reason, f);
      case 'number':
        return Math.max(1, f.min ?? 1);
      case 'money':
        return l ? l.amount : total;
      case 'date':
        return l ? l.expense_date : b.period_to;
      case 'select': {
        const opts = f.options ?? [];
        const want = l ? [formCategoryOf(l.category_code), l.category_name] : [];
        return want.find((w) => opts.includes(w)) ?? opts.at(-1) ?? '';
      }
      default:
        return '';
    }
  };
  const out: Record<string, unknown> = {};
  for (const f of def.form) {
    if (f.type === 'dateRange') out[f.key] = [b.period_from, b.period_to];
    else if (f.type === 'attachments') out[f.key] = [];
    else if (f.type === 'user') out[f.key] = { id: u.id, name: u.name };
    else if (f.type === 'dept') out[f.key] = { id: deptId, name: b.dept_name };
    else if (f.type === 'table') out[f.key] = ls.map((l) => Object.fromEntries((f.columns ?? []).map((c) => [c.key, scalar(c, l)])));
    else out[f.key] = scalar(f);
  }
  return out;
}

/** Starts an FY01 instance for each bill (record_type reimbursement, record_id the bill) and moves some of them on. */
export async function startApprovals(ctx: SeedContext, specs: BillSpec[], bills: ReimbBillTable[], lines: ReimbLineTable[], rng: Rng): Promise<void> {
  const clock = { t: 0 };
  const engine = new WorkflowEngine({ kysely: ctx.db, dialect: 'sqlite', close: async () => undefined }, new OutcomeRegistry(), () => new Date(clock.t));
  const byId = new Map(ctx.users.map((u) => [u.id, u]));
  const billById = new Map(bills.map((b) => [b.id, b]));
  const limit = ctx.now.getTime() - 60_000;
  const tpl = await wf(ctx.db).selectFrom('wf_templates').select('definition').where('flow_no', '=', 'FY01').where('is_current', '=', 1).executeTakeFirst();
  if (!tpl) return;
  const def = JSON.parse(tpl.definition) as FlowDefinition;
  for (const s of specs) {
    const b = billById.get(s.id!)!;
    const u = s.applicant;
    const ls = lines.filter((l) => l.bill_id === b.id);
    const form = fy01Form(def, b, ls, u);
    clock.t = Math.min(limit, Date.parse(b.submitted_at ?? b.created_at));
    const moved = await engine.start(actorOf(u), { flowNo: 'FY01', title: `费用报销 ${b.bill_no}：${b.reason}`, form }, ctx.db, { recordType: 'reimbursement', recordId: b.id });
    let state: number = moved.state;
    for (let m = rng.int(0, 2); m > 0 && state === FlowState.running; m--) {
      clock.t = Math.min(limit, clock.t + rng.int(30, 600) * 60_000);
      const open = await wf(ctx.db).selectFrom('wf_work_items').select(['handler_id']).where('work_id', '=', moved.workId).where('state', '=', 0).orderBy('handler_name').execute();
      const who = open.length ? byId.get(open[0]!.handler_id) : undefined;
      if (!who) break;
      state = (await engine.send(actorOf(who), { workId: moved.workId, opinion: '同意' }, ctx.db)).state;
    }
    const set: Partial<ReimbBillTable> = { work_id: moved.workId };
    if (state === FlowState.complete) Object.assign(set, { flow_state: ReimbFlowState.approved, reimb_state: ReimbState.unReimburse, approved_at: new Date(clock.t).toISOString() });
    await ctx.db.updateTable('reimb_bills').set(set).where('id', '=', b.id).execute();
  }
}
