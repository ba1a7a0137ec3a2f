/**
 * The set-up of the applying tests (reimbursement-apply.test.ts, reimbursement-apply-approval.test.ts): the
 * test's own expense categories (T-OFFICE, T-HOTEL, T-TRAFFIC, T-ALLOW and the disabled T-OFF), one travel
 * standard (staff, tier 1: 北京), two staff members of different departments without a profile (the
 * applicant A and the other employee B), and the calls and reads the tests share.
 */
import { IncomeSource } from '@zhyy/shared';
import { arrive } from '../src/modules/income/intake/arrival.js';
import { startTestServer, type TestServer } from './helpers.js';
import { entry, shanghaiDay } from './income-helpers.js';

const NOW = new Date().toISOString();

export interface Person {
  login: string;
  id: string;
  name: string;
  token: string;
}
export const person = (): Person => ({ login: '', id: '', name: '', token: '' });

async function staff(s: TestServer, exclude: string[]): Promise<{ login: string; id: string; name: string }> {
  const k = s.db.kysely;
  const users = await k.selectFrom('users').select(['login_name', 'id', 'name', 'dept_id']).where('status', '=', 1).where('dept_id', 'is not', null).orderBy('login_name').execute();
  const roles = await k.selectFrom('user_roles').select(['user_id', 'role']).execute();
  const managers = new Set((await k.selectFrom('departments').select('manager_id').execute()).map((d) => d.manager_id));
  const strong = new Set(roles.filter((r) => ['1', '3', '12', '16'].includes(r.role)).map((r) => r.user_id));
  const u = users.find((x) => !managers.has(x.id) && !strong.has(x.id) && !exclude.includes(x.dept_id!) && !x.login_name.startsWith('demo') && x.login_name !== 'admin')!;
  return { login: u.login_name, id: u.id, name: u.name };
}

/**
 * The server of the applying tests with the settings above; fills in the applicant A (a staff member, not a
 * manager) and B (another employee of another department), both signed in; the tokens of the 费用会计
 * (demo12, role 12) and of demo16 (role 16).
 */
export async function startApplyServer(A: Person, B: Person): Promise<{ s: TestServer; t12: string; tBoss: string }> {
  const s = await startTestServer();
  const k = s.db.kysely;
  await k
    .insertInto('reimb_categories')
    .values([
      { code: 'T-OFFICE', name: '测试办公费', travel_kind: '', subject_code: '660201', subject_name: '管理费用-办公费', default_tax_rate: '0.13', sort: 1, enabled: 1, updated_at: NOW },
      { code: 'T-HOTEL', name: '测试住宿费', travel_kind: 'hotel', subject_code: '660202', subject_name: '管理费用-差旅费', default_tax_rate: '0.06', sort: 2, enabled: 1, updated_at: NOW },
      { code: 'T-TRAFFIC', name: '测试交通费', travel_kind: 'transport', subject_code: '660202', subject_name: '管理费用-差旅费', default_tax_rate: '0.09', sort: 3, enabled: 1, updated_at: NOW },
      { code: 'T-ALLOW', name: '测试出差补助', travel_kind: 'allowance', subject_code: '660202', subject_name: '管理费用-差旅费', default_tax_rate: '0', sort: 4, enabled: 1, updated_at: NOW },
      { code: 'T-OFF', name: '测试停用类别', travel_kind: '', subject_code: '', subject_name: '', default_tax_rate: '0', sort: 5, enabled: 0, updated_at: NOW },
    ])
    .onConflict((oc) => oc.doNothing())
    .execute();
  await k.deleteFrom('reimb_travel_standards').execute();
  await k.insertInto('reimb_travel_standards').values({ grade: 'staff', city_tier: 1, hotel_per_night: 50_000, seat_classes: '二等座,经济舱', allowance_per_day: 10_000, updated_at: NOW }).execute();
  await k.insertInto('reimb_city_tiers').values({ city: '北京', tier: 1 }).onConflict((oc) => oc.doNothing()).execute();
  Object.assign(A, await staff(s, []));
  const aDept = (await k.selectFrom('users').select('dept_id').where('id', '=', A.id).executeTakeFirstOrThrow()).dept_id!;
  Object.assign(B, await staff(s, [aDept]));
  await k.deleteFrom('reimb_profiles').where('user_id', 'in', [A.id, B.id]).execute();
  A.token = await s.login(A.login);
  B.token = await s.login(B.login);
  const t12 = await s.login('demo12');
  const tBoss = await s.login('demo16');
  return { s, t12, tBoss };
}

export const header = (over: Record<string, unknown> = {}) => ({
  periodFrom: shanghaiDay(-20),
  periodTo: shanghaiDay(),
  reason: '项目现场出差',
  payeeName: '收款人甲',
  payeeBank: '工商银行南京分行',
  payeeAccount: '6222020200112233445',
  ...over,
});
export const line = (over: Record<string, unknown> = {}) => ({ categoryCode: 'T-OFFICE', expenseDate: shanghaiDay(-5), description: '办公用品', amount: 10_900, invoiceId: null, ...over });

/** The applying tests' calls and reads of one server (`server()` once its beforeAll has run). */
export function applyHelpers(server: () => TestServer) {
  return {
    call: (url: string, body: unknown, token: string) => server().call(`/api/reimbursement${url}`, body, token),
    /** A new invoice in the pool uploaded by `userId` (109.00 incl. tax unless told), or one of its overrides. */
    invoice: async (userId: string | null, over: Record<string, unknown> = {}): Promise<string> => {
      const e = entry(over);
      const a = await server().db.kysely.transaction().execute((trx) => arrive({ ...e, invoiceCode: '', invoiceNo: '', checkCode: '' } as never, IncomeSource.uploaded, trx, { userId: userId ?? undefined, userName: 'x' }));
      return a.id;
    },
    usage: async (id: string) => server().db.kysely.selectFrom('income_invoices').select(['usage', 'use_kind', 'doc_no']).where('id', '=', id).executeTakeFirstOrThrow(),
    bill: async (id: string) => server().db.kysely.selectFrom('reimb_bills').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
  };
}
