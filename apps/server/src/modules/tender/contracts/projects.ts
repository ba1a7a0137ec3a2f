/**
 * Projects (项目管理, roles 1 and 4): the list, one project with its contracts, its outgoing invoices and
 * history, add and modify. The registered-manager rule (a 注册建造师 leads one active project at a time)
 * is checked by the service, which names the other project, and enforced by the partial unique index of
 * migration 0036: of two assignments at the same moment one is saved and the other gets the same answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import {
  CONSTRUCTOR_KINDS, InvoiceStatus, OperationLogType, ProjectState, exceptionAllowance, formatFen, isActiveProject, managerConflictMessage, type PageResult, type TenderOption, type TenderProjectDetail, type TenderProjectFilter,
  type TenderProjectInput, type TenderProjectInvoiceRow, type TenderProjectQuery, type TenderProjectRow, type TenderUserOption,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { contains, offsetOf, shanghaiDay, sortOf } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { MANAGER_INDEX } from '../../../db/migrations/0036_tender_contracts.js';
import { contractsWhere, historyOf } from './queries.js';
import { isUniqueViolation } from './service.js';
import { certsOfUser } from '../people/queries.js';
import { endExceptionsOfProject, exceptionMarkOf, exceptionsBetween, exceptionsOfManager, exceptionsOfProjects } from './exceptions.js';
import '../tables.js';
import '../../invoice/tables.js';
import '../people/tables.js';

type Db = Kysely<Database>;
type From = Database & { p: Database['projects']; u: Database['users'] };

const base = (db: Db) => db.selectFrom('projects as p').leftJoin('users as u', 'u.id', 'p.manager_id');
const contractCount = (_db: Db) => sql<number>`(select count(*) from contracts c where c.project_id = p.id)`.as('contracts');
const COLUMNS = ['p.id', 'p.code', 'p.name', 'p.customer', 'p.location', 'p.amount', 'p.start_date', 'p.end_date', 'p.state', 'p.manager_id', 'u.name as manager_name', 'p.manager_registered', 'p.is_temp', 'p.updated_at'] as const;

function applyFilters<O>(q: SelectQueryBuilder<From, 'p' | 'u', O>, f: TenderProjectFilter) {
  let out = q;
  const kw = f.keyword?.trim();
  if (kw) out = out.where((eb) => eb.or([contains(eb.ref('p.code'), kw), contains(eb.ref('p.name'), kw), contains(eb.ref('p.location'), kw)]));
  if (f.customer?.trim()) out = out.where((eb) => contains(eb.ref('p.customer'), f.customer!.trim()));
  if (f.state) out = out.where('p.state', '=', f.state);
  if (f.managerId) out = out.where('p.manager_id', '=', f.managerId);
  if (f.startFrom) out = out.where('p.start_date', '>=', f.startFrom);
  if (f.startTo) out = out.where('p.start_date', '<=', f.startTo);
  return out;
}

const SORTS = { code: 'p.code', name: 'p.name', amount: 'p.amount', startDate: 'p.start_date', state: 'p.state', updatedAt: 'p.updated_at' } as const;
const sorted = <O>(q: SelectQueryBuilder<From, 'p' | 'u', O>, f: TenderProjectQuery | TenderProjectFilter) => {
  const s = sortOf('sort' in f ? f.sort : undefined, SORTS, { column: 'p.code', order: 'desc' });
  return q.orderBy(s.column, s.order).orderBy('p.id');
};

type Rec = {
  id: string; code: string; name: string; customer: string; location: string; amount: number | string; start_date: string | null; end_date: string | null; state: number;
  manager_id: string | null; manager_name: string | null; manager_registered: number; is_temp: number; updated_at: string; contracts: number | string | bigint | null;
};
const toRow = (r: Rec): TenderProjectRow => ({
  id: r.id, code: r.code, name: r.name, customer: r.customer, location: r.location, amount: Number(r.amount), startDate: r.start_date, endDate: r.end_date, state: Number(r.state),
  managerId: r.manager_id, managerName: r.manager_name ?? '', managerRegistered: Number(r.manager_registered) === 1, contractCount: Number(r.contracts ?? 0), isTemp: Number(r.is_temp) === 1,
  updatedAt: r.updated_at,
});
const rows = (db: Db) => base(db).select([...COLUMNS]).select(contractCount(db));

export async function projectCount(db: Db, f: TenderProjectFilter): Promise<number> {
  return Number((await applyFilters(base(db), f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

export async function projectPage(db: Db, q: TenderProjectQuery): Promise<PageResult<TenderProjectRow>> {
  const [total, items] = await Promise.all([projectCount(db, q), sorted(applyFilters(rows(db), q), q).limit(q.pageSize).offset(offsetOf(q)).execute()]);
  return { total, items: items.map(toRow) };
}

export async function* projectBatches(db: Db, f: TenderProjectFilter, size = 1000): AsyncIterable<TenderProjectRow[]> {
  for (let offset = 0; ; offset += size) {
    const got = (await sorted(applyFilters(rows(db), f), f).limit(size).offset(offset).execute()).map(toRow);
    if (got.length) yield got;
    if (got.length < size) return;
  }
}

export async function projectById(db: Db, id: string): Promise<TenderProjectRow | undefined> {
  const r = await rows(db).where('p.id', '=', id).executeTakeFirst();
  return r ? toRow(r) : undefined;
}

/** The outgoing invoices of a project: issued on it or on one of its contracts (newest first, at most 500). */
async function projectInvoices(db: Db, id: string): Promise<{ invoices: TenderProjectInvoiceRow[]; invoiced: number }> {
  const list = await db
    .selectFrom('invoices as i')
    .select(['i.id', 'i.invoice_no', 'i.digital_no', 'i.order_no', 'i.buyer_name', 'i.issue_date', 'i.amount_incl', 'i.status', 'i.colour'])
    .where((eb) => eb.or([eb('i.project_id', '=', id), eb('i.contract_id', 'in', eb.selectFrom('contracts').select('id').where('project_id', '=', id))]))
    .orderBy('i.issue_date', 'desc')
    .orderBy('i.id')
    .limit(500)
    .execute();
  // 已开票 as 项目开票统计 counts it: the allocations to the project of invoices in force.
  const t = await db
    .selectFrom('invoice_allocations as a')
    .innerJoin('invoices as i', 'i.id', 'a.invoice_id')
    .select(sql<number>`coalesce(sum(a.amount_incl), 0)`.as('n'))
    .where('a.dim', '=', 'project')
    .where('a.target_id', '=', id)
    .where('i.status', '=', InvoiceStatus.created)
    .executeTakeFirstOrThrow();
  return {
    invoices: list.map((r) => ({ id: r.id, invoiceNo: r.digital_no || r.invoice_no || r.order_no, buyerName: r.buyer_name, issueDate: r.issue_date, amountIncl: Number(r.amount_incl), status: Number(r.status), colour: Number(r.colour) })),
    invoiced: Number(t.n),
  };
}

export async function projectDetail(db: Db, id: string): Promise<TenderProjectDetail> {
  const p = await projectById(db, id);
  if (!p) throw notFound('项目不存在或已删除');
  const [contracts, inv, history, certificates, managerExceptions] = await Promise.all([
    contractsWhere(db, 'c.project_id', id), projectInvoices(db, id), historyOf(db, 'project', id), p.managerId ? certsOfUser(db, p.managerId) : Promise.resolve([]), exceptionsOfProjects(db, [id]),
  ]);
  // Certificates in use: no link of people to projects exists yet, so the manager's.
  return { ...p, contracts, ...inv, certificates, managerExceptions, history };
}

export async function projectOptions(db: Db, keyword?: string): Promise<TenderOption[]> {
  let s = db.selectFrom('projects as p').select(['p.id', 'p.code', 'p.name']).where('p.is_temp', '=', 0);
  const kw = keyword?.trim();
  if (kw) s = s.where((eb) => eb.or([contains(eb.ref('p.code'), kw), contains(eb.ref('p.name'), kw)]));
  return s.orderBy('p.code').limit(50).execute();
}

/**
 * Active staff (the manager pickers): up to 50 by name or login name. The 注册建造师 of today (a valid
 * 一级/二级建造师 certificate, as isRegisteredConstructor) come first and are marked; the built-in
 * 系统管理员 (admin), who manages no project, comes last.
 */
export async function userOptions(db: Db, keyword?: string, day = shanghaiDay()): Promise<TenderUserOption[]> {
  const registered = sql<number>`case when exists (
    select 1 from tender_certificates c inner join tender_cert_kinds k on k.id = c.kind_id
    where c.user_id = u.id and k.name in (${sql.join([...CONSTRUCTOR_KINDS])})
      and c.valid_from <= ${day} and (c.valid_to is null or c.valid_to >= ${day})
  ) then 1 else 0 end`;
  let s = db
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .select(['u.id', 'u.name', 'u.login_name', 'd.name as dept_name', registered.as('registered')])
    .where('u.status', '=', 1);
  const kw = keyword?.trim();
  if (kw) s = s.where((eb) => eb.or([contains(eb.ref('u.name'), kw), contains(eb.ref('u.login_name'), kw)]));
  const rows = await s
    .orderBy(registered, 'desc')
    .orderBy(sql`case when u.login_name = 'admin' then 1 else 0 end`)
    .orderBy('u.login_name')
    .limit(50)
    .execute();
  return rows.map((u) => ({ id: u.id, name: u.name, loginName: u.login_name, deptName: u.dept_name ?? '', registered: Number(u.registered) === 1 }));
}

const describe = (p: TenderProjectRow) =>
  `${p.code} ${p.name}（${ProjectState.label(p.state)}，客户 ${p.customer || '空'}，地点 ${p.location || '空'}，金额 ${formatFen(p.amount)}元，工期 ${p.startDate ?? '空'} 至 ${p.endDate ?? '空'}，项目经理 ${p.managerName || '空'}${p.managerRegistered ? '（注册建造师）' : ''}）`;

/**
 * Whether a user is a 注册建造师 on `day`: holds a 一级/二级建造师 certificate (CONSTRUCTOR_KINDS) valid
 * that day (started, and not ended or open-ended). The project's manager_registered flag is this.
 */
export async function isRegisteredConstructor(db: Db, userId: string, day = shanghaiDay()): Promise<boolean> {
  const hit = await db
    .selectFrom('tender_certificates as c')
    .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
    .select('c.id')
    .where('c.user_id', '=', userId)
    .where('k.name', 'in', [...CONSTRUCTOR_KINDS])
    .where('c.valid_from', '<=', day)
    .where((eb) => eb.or([eb('c.valid_to', 'is', null), eb('c.valid_to', '>=', day)]))
    .limit(1)
    .executeTakeFirst();
  return !!hit;
}

/**
 * A manager's stored 注册建造师 flag on their projects, set again from their certificates now (isRegisteredConstructor):
 * after a certificate of theirs is added, changed or deleted, in the same transaction. Not registered: every
 * project unmarked. Registered: the projects that are not active are marked, and of the active ones (在建, 停工)
 * at most one, as the rule allows — the one already marked, else the first by code (the seed's choice); the others,
 * taken before the certificate existed, stay unmarked. Answers the projects whose flag changed, for the log.
 */
export async function refreshRegisteredFlags(db: Db, userId: string, day = shanghaiDay()): Promise<Array<{ code: string; name: string; registered: boolean }>> {
  const projects = await db.selectFrom('projects').select(['id', 'code', 'name', 'state', 'manager_registered', 'manager_exception_id']).where('manager_id', '=', userId).orderBy('code').orderBy('id').execute();
  if (!projects.length) return [];
  const registered = await isRegisteredConstructor(db, userId, day);
  // The projects resting on a manager exception (issue 29) are left out of the one-active rule and stay marked.
  const active = projects.filter((p) => isActiveProject(p.state) && !p.manager_exception_id);
  const keep = registered ? (active.find((p) => p.manager_registered === 1) ?? active[0]) : undefined;
  const want = (p: (typeof projects)[number]) => registered && (!isActiveProject(p.state) || !!p.manager_exception_id || p === keep);
  const changed = projects.filter((p) => (p.manager_registered === 1) !== want(p));
  // Unmarked first, so no moment has two active projects of the manager marked (the partial unique index).
  const off = changed.filter((p) => !want(p)).map((p) => p.id);
  const on = changed.filter((p) => want(p)).map((p) => p.id);
  if (off.length) await db.updateTable('projects').set({ manager_registered: 0 }).where('id', 'in', off).execute();
  if (on.length) await db.updateTable('projects').set({ manager_registered: 1 }).where('id', 'in', on).execute();
  return changed.map((p) => ({ code: p.code, name: p.name, registered: want(p) }));
}

export class TenderProjectService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  /**
   * The registered-manager rule for a project being saved: the refusal naming the first active project that
   * already has this registered manager with no exception in force for the pair (the exception's problem
   * added when one is recorded), or the sentences naming the rule that allowed each other active project.
   */
  private async managerRefusal(db: Db, b: TenderProjectInput, selfId: string | undefined): Promise<{ refusal: Error | null; allowed: string[] }> {
    if (!b.managerId || !b.managerRegistered || !isActiveProject(b.state)) return { refusal: null, allowed: [] };
    // Registration is the person's, as of now: another project's stored flag may predate the certificate.
    const others = (await db.selectFrom('projects').select(['id', 'code', 'name', 'state']).where('manager_id', '=', b.managerId).execute()).filter((o) => o.id !== selfId && isActiveProject(o.state));
    if (!others.length) return { refusal: null, allowed: [] };
    const who = (await db.selectFrom('users').select('name').where('id', '=', b.managerId).executeTakeFirst())?.name ?? '';
    const exceptions = selfId ? await exceptionsOfManager(db, b.managerId, { id: selfId, code: b.code, name: b.name, customer: b.customer, state: b.state, managerId: b.managerId }) : [];
    const allowed: string[] = [];
    for (const o of others) {
      const recorded = exceptionsBetween(exceptions, b.managerId, selfId ?? '', o.id);
      const inForce = recorded.find((e) => e.problem === null);
      if (inForce) {
        allowed.push(exceptionAllowance(who, o, inForce.ground));
        continue;
      }
      const why = recorded[0]?.problem;
      const hint = why
        ? `；已登记的例外不能使用：${why}`
        : selfId
          ? '（如属注册建造师执业管理办法（试行）第九条的例外情形，请在项目详情中登记例外并上传证明材料）'
          : '（如属注册建造师执业管理办法（试行）第九条的例外情形，请先不填项目经理保存项目，再在项目详情中登记例外并上传证明材料）';
      return { refusal: conflict(`${managerConflictMessage(who, o)}${hint}`), allowed: [] };
    }
    return { refusal: null, allowed };
  }

  /** Saves a project; `allowed` names the exceptions that let its registered manager lead other active projects. */
  async save(req: FastifyRequest, input: TenderProjectInput): Promise<{ row: TenderProjectRow; allowed: string[] }> {
    let allowed: string[] = [];
    const id = input.id ?? newId();
    // 注册建造师 is derived from the manager's certificates; a flag sent by the client is not used.
    let b: TenderProjectInput = { ...input, managerRegistered: false };
    try {
      await this.db.transaction().execute(async (trx) => {
        if (b.managerId && !(await trx.selectFrom('users').select('id').where('id', '=', b.managerId).executeTakeFirst())) throw refuse('所选项目经理不存在，请重新选择');
        b = { ...b, managerRegistered: b.managerId ? await isRegisteredConstructor(trx, b.managerId) : false };
        const dup = await trx.selectFrom('projects').select(['id', 'name']).where('code', '=', b.code).executeTakeFirst();
        if (dup && dup.id !== id) throw conflict(`项目编号${b.code}已被「${dup.name}」使用`);
        const rule = await this.managerRefusal(trx, b, b.id ? id : undefined);
        if (rule.refusal) throw rule.refusal;
        allowed = rule.allowed;
        const because = allowed.length ? `；${allowed.join('；')}` : '';
        // The manager's other projects take the flag as derived now (none of them is active when it is set).
        if (b.managerId) await trx.updateTable('projects').set({ manager_registered: b.managerRegistered ? 1 : 0 }).where('manager_id', '=', b.managerId).where('id', '!=', id).execute();
        const now = nowIso();
        const cols = {
          code: b.code, name: b.name, customer: b.customer, location: b.location, amount: b.amount, start_date: b.startDate ?? null, end_date: b.endDate ?? null, state: b.state,
          manager_id: b.managerId ?? null, manager_registered: b.managerRegistered ? 1 : 0, updated_by: req.user?.name ?? '', updated_at: now,
          manager_exception_id: b.id ? await exceptionMarkOf(trx, id, b.managerId ?? null) : null,
        };
        if (!b.id) {
          await trx.insertInto('projects').values({ id, ...cols, source: 0, is_temp: 0, created_at: now }).execute();
          await this.app.oplog.recordFor({ kind: 'project', id }, req, OperationLogType.add, `新增项目：${describe((await projectById(trx, id))!)}${because}`, trx);
          return;
        }
        const before = await projectById(trx, id);
        if (!before) throw notFound('项目不存在或已删除');
        await trx.updateTable('projects').set({ ...cols, is_temp: 0 }).where('id', '=', id).execute();
        await this.app.oplog.recordFor({ kind: 'project', id }, req, OperationLogType.edit, `修改项目：${describe(before)} → ${describe((await projectById(trx, id))!)}${because}`, trx);
        // An exception whose ground this save ended (a project finished, the stopped one resumed) ends by itself.
        await endExceptionsOfProject(this.app, trx, req, id);
      });
    } catch (err) {
      // Another save took this manager at the same moment: the partial unique index refused ours.
      if (isUniqueViolation(err, MANAGER_INDEX) || isUniqueViolation(err, 'projects.manager_id')) {
        const rule = await this.managerRefusal(this.db, b, b.id ? id : undefined);
        throw rule.refusal ?? conflict('该注册建造师已担任其他在建项目的项目经理');
      }
      if (isUniqueViolation(err)) throw conflict(`项目编号${b.code}已被使用`);
      throw err;
    }
    return { row: (await projectById(this.db, id))!, allowed };
  }
}
