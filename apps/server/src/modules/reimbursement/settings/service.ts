/**
 * 报销设置 (/reimbursement/cost-setting, roles 1 and 12): the changes. Every change is one operation log
 * entry written in its transaction. The accounting interface's credential never leaves the server: the
 * view says only whether one is stored, and a save without it keeps the stored one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import {
  OperationLogType, ReimbCityTier, ReimbGrade,
  type PageResult, type ReimbAccountingBody, type ReimbAccountingView, type ReimbCategoryBody, type ReimbGradeListQuery, type ReimbGradeRow, type ReimbSettingView, type ReimbStandardsBody,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { createAccountingGateway } from '../../../integrations/accounting/index.js';
import { notFound, refuse } from '../../../platform/envelope.js';
import { contains, offsetOf } from '../../../platform/listing.js';
import { nowIso } from '../../../platform/time.js';
import { ACCOUNTING_SETTING_KEY, reimbAccountingConfig, reimbSetting, storedAccounting, type StoredAccounting } from './read.js';
import '../tables.js';

type Db = Kysely<Database>;
const yuan = (fen: number) => (fen / 100).toFixed(2);
const rateText = (r: string) => `${Math.round(Number(r) * 100)}%`;

/** A URL the server may call: http(s) with a host, nothing else. */
export function accountingUrlProblem(url: string): string {
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

export class ReimbSettingService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  async view(): Promise<ReimbSettingView> {
    const db = this.db;
    const used = await db.selectFrom('reimb_lines').select(['category_code', (eb) => eb.fn.countAll<number>().as('n')]).groupBy('category_code').execute();
    const usedBy = new Map(used.map((u) => [u.category_code, Number(u.n)]));
    const cats = await db.selectFrom('reimb_categories').selectAll().orderBy('sort').orderBy('code').execute();
    const standards = await db.selectFrom('reimb_travel_standards').selectAll().execute();
    const gradeOrder = ReimbGrade.values as readonly string[];
    standards.sort((a, b) => gradeOrder.indexOf(a.grade) - gradeOrder.indexOf(b.grade) || a.city_tier - b.city_tier);
    const cities = await db.selectFrom('reimb_city_tiers').selectAll().orderBy('tier').orderBy('city').execute();
    return {
      categories: cats.map((c) => ({
        code: c.code, name: c.name, travelKind: c.travel_kind, subjectCode: c.subject_code, subjectName: c.subject_name, defaultTaxRate: c.default_tax_rate,
        sort: c.sort, enabled: c.enabled === 1, usedCount: usedBy.get(c.code) ?? 0,
      })),
      costCentres: await this.costCentres(),
      standards: standards.map((s) => ({ grade: s.grade, cityTier: s.city_tier, hotelPerNight: Number(s.hotel_per_night), seatClasses: s.seat_classes.split(',').filter(Boolean), allowancePerDay: Number(s.allowance_per_day) })),
      cities: cities.map((c) => ({ city: c.city, tier: c.tier })),
      invoiceAgeDays: await reimbSetting(db, 'invoiceAgeDays'),
      accounting: await this.accountingView(),
    };
  }

  /** Every department (tree order, with its path) and its cost centre ('' when it has none). */
  private async costCentres() {
    const depts = await this.db.selectFrom('departments').select(['id', 'parent_id', 'name', 'sort']).orderBy('sort').orderBy('name').execute();
    const centres = new Map((await this.db.selectFrom('reimb_cost_centres').selectAll().execute()).map((c) => [c.dept_id, c]));
    const byId = new Map(depts.map((d) => [d.id, d]));
    const path = (id: string): string[] => {
      const out: string[] = [];
      for (let d = byId.get(id), n = 0; d && n < 50; d = d.parent_id ? byId.get(d.parent_id) : undefined, n++) out.unshift(d.name);
      return out;
    };
    const ordered: typeof depts = [];
    const walk = (parent: string | null) => {
      for (const d of depts.filter((x) => (x.parent_id && byId.has(x.parent_id) ? x.parent_id : null) === parent)) {
        ordered.push(d);
        walk(d.id);
      }
    };
    walk(null);
    return ordered.map((d) => ({
      deptId: d.id, deptName: d.name, deptPath: path(d.id).join(' / '), parentId: d.parent_id,
      centreCode: centres.get(d.id)?.centre_code ?? '', centreName: centres.get(d.id)?.centre_name ?? '',
    }));
  }

  async accountingView(): Promise<ReimbAccountingView> {
    const s = await storedAccounting(this.db);
    if (!s) {
      const env = await reimbAccountingConfig(this.db).catch(() => ({ mode: 'simulator' as const, url: '', token: '', timeoutMs: 15_000 }));
      return { mode: env.mode, url: env.url ?? '', timeoutMs: env.timeoutMs ?? 15_000, tokenSet: Boolean(env.token), source: 'env' };
    }
    return { mode: s.mode, url: s.url, timeoutMs: s.timeoutMs, tokenSet: s.token !== '', source: 'setting' };
  }

  // ---- 费用类别 ----

  async addCategory(req: FastifyRequest, b: ReimbCategoryBody): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      if (await trx.selectFrom('reimb_categories').select('code').where('code', '=', b.code).executeTakeFirst()) throw refuse(`类别编码 ${b.code} 已存在`);
      await this.nameFree(trx, b.name, b.code);
      // A concurrent add of the same code or name: the second one inserts nothing and is refused like the first check.
      const r = await trx.insertInto('reimb_categories').values({ ...this.categoryRow(b), code: b.code, enabled: 1 }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw refuse(`类别编码 ${b.code} 或名称「${b.name}」已存在`);
      await this.app.oplog.record(req, OperationLogType.add, `新增费用类别：${b.code} ${b.name}，科目 ${b.subjectCode} ${b.subjectName}，默认税率 ${rateText(b.defaultTaxRate)}`, trx);
    });
  }

  async editCategory(req: FastifyRequest, b: ReimbCategoryBody): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const had = await trx.selectFrom('reimb_categories').selectAll().where('code', '=', b.code).executeTakeFirst();
      if (!had) throw notFound('费用类别不存在');
      await this.nameFree(trx, b.name, b.code);
      await trx.updateTable('reimb_categories').set(this.categoryRow(b)).where('code', '=', b.code).execute();
      await this.app.oplog.record(req, OperationLogType.edit, `修改费用类别：${b.code} ${had.name === b.name ? b.name : `${had.name} → ${b.name}`}，科目 ${b.subjectCode} ${b.subjectName}，默认税率 ${rateText(b.defaultTaxRate)}`, trx);
    });
  }

  private categoryRow(b: ReimbCategoryBody) {
    return { name: b.name, travel_kind: b.travelKind, subject_code: b.subjectCode, subject_name: b.subjectName, default_tax_rate: b.defaultTaxRate, sort: b.sort, updated_at: nowIso() };
  }

  private async nameFree(trx: Db, name: string, code: string): Promise<void> {
    const other = await trx.selectFrom('reimb_categories').select('code').where('name', '=', name).where('code', '<>', code).executeTakeFirst();
    if (other) throw refuse(`类别名称「${name}」已被类别 ${other.code} 使用`);
  }

  async enableCategory(req: FastifyRequest, code: string, enabled: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const had = await trx.selectFrom('reimb_categories').select(['name', 'enabled']).where('code', '=', code).executeTakeFirst();
      if (!had) throw notFound('费用类别不存在');
      if ((had.enabled === 1) === enabled) throw refuse(enabled ? '该类别已是启用状态' : '该类别已是停用状态');
      await trx.updateTable('reimb_categories').set({ enabled: enabled ? 1 : 0, updated_at: nowIso() }).where('code', '=', code).execute();
      await this.app.oplog.record(req, OperationLogType.edit, `${enabled ? '启用' : '停用'}费用类别：${code} ${had.name}`, trx);
    });
  }

  async deleteCategory(req: FastifyRequest, code: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const had = await trx.selectFrom('reimb_categories').select('name').where('code', '=', code).executeTakeFirst();
      if (!had) throw notFound('费用类别不存在');
      const used = await trx.selectFrom('reimb_lines').select('id').where('category_code', '=', code).limit(1).executeTakeFirst();
      if (used) throw refuse(`费用类别「${had.name}」已被报销单使用，不能删除，只能停用`);
      await trx.deleteFrom('reimb_categories').where('code', '=', code).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除费用类别：${code} ${had.name}`, trx);
    });
  }

  // ---- 成本中心 ----

  async saveCostCentre(req: FastifyRequest, deptId: string, code: string, name: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const dept = await trx.selectFrom('departments').select('name').where('id', '=', deptId).executeTakeFirst();
      if (!dept) throw notFound('部门不存在');
      const clash = await trx
        .selectFrom('reimb_cost_centres')
        .innerJoin('departments', 'departments.id', 'reimb_cost_centres.dept_id')
        .select('departments.name')
        .where('reimb_cost_centres.centre_code', '=', code)
        .where('reimb_cost_centres.dept_id', '<>', deptId)
        .executeTakeFirst();
      if (clash) throw refuse(`成本中心编码 ${code} 已用于部门「${clash.name}」`);
      const now = nowIso();
      await trx
        .insertInto('reimb_cost_centres')
        .values({ dept_id: deptId, centre_code: code, centre_name: name, updated_at: now })
        .onConflict((oc) => oc.column('dept_id').doUpdateSet({ centre_code: code, centre_name: name, updated_at: now }))
        .execute();
      await this.app.oplog.record(req, OperationLogType.edit, `设置成本中心：${dept.name} → ${code} ${name}`, trx);
    });
  }

  async deleteCostCentre(req: FastifyRequest, deptId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const had = await trx
        .selectFrom('reimb_cost_centres')
        .innerJoin('departments', 'departments.id', 'reimb_cost_centres.dept_id')
        .select(['departments.name', 'reimb_cost_centres.centre_code'])
        .where('reimb_cost_centres.dept_id', '=', deptId)
        .executeTakeFirst();
      if (!had) throw notFound('该部门未设置成本中心');
      await trx.deleteFrom('reimb_cost_centres').where('dept_id', '=', deptId).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `取消成本中心：${had.name}（原 ${had.centre_code}）`, trx);
    });
  }

  // ---- 差旅标准 ----

  async saveStandards(req: FastifyRequest, b: ReimbStandardsBody): Promise<void> {
    const seen = new Set<string>();
    for (const it of b.items) {
      const key = `${it.grade}:${it.cityTier}`;
      if (seen.has(key)) throw refuse(`差旅标准重复：${ReimbGrade.label(it.grade)} × ${ReimbCityTier.label(it.cityTier)}`);
      seen.add(key);
    }
    await this.db.transaction().execute(async (trx) => {
      const now = nowIso();
      const parts: string[] = [];
      for (const it of b.items) {
        const seats = [...new Set(it.seatClasses)].join(',');
        const row = { hotel_per_night: it.hotelPerNight, seat_classes: seats, allowance_per_day: it.allowancePerDay, updated_at: now };
        await trx
          .insertInto('reimb_travel_standards')
          .values({ grade: it.grade, city_tier: it.cityTier, ...row })
          .onConflict((oc) => oc.columns(['grade', 'city_tier']).doUpdateSet(row))
          .execute();
        parts.push(`${ReimbGrade.label(it.grade)}·${ReimbCityTier.label(it.cityTier)} 住宿${yuan(it.hotelPerNight)}元/晚 补助${yuan(it.allowancePerDay)}元/天 ${seats}`);
      }
      await this.app.oplog.record(req, OperationLogType.edit, `修改差旅标准：${parts.join('；')}`, trx);
    });
  }

  // ---- 城市分类 ----

  async addCity(req: FastifyRequest, city: string, tier: number): Promise<void> {
    const name = city.replace(/市$/, '');
    await this.db.transaction().execute(async (trx) => {
      const had = await trx.selectFrom('reimb_city_tiers').select('tier').where('city', '=', name).executeTakeFirst();
      if (had) throw refuse(`城市「${name}」已在${ReimbCityTier.label(had.tier)}中`);
      const r = await trx.insertInto('reimb_city_tiers').values({ city: name, tier }).onConflict((oc) => oc.column('city').doNothing()).executeTakeFirst();
      if (Number(r.numInsertedOrUpdatedRows ?? 0) === 0) throw refuse(`城市「${name}」已在城市分类中`);
      await this.app.oplog.record(req, OperationLogType.add, `新增城市分类：${name}（${ReimbCityTier.label(tier)}）`, trx);
    });
  }

  async removeCity(req: FastifyRequest, city: string): Promise<void> {
    const name = city.replace(/市$/, '');
    await this.db.transaction().execute(async (trx) => {
      const had = await trx.selectFrom('reimb_city_tiers').select('tier').where('city', '=', name).executeTakeFirst();
      if (!had) throw notFound(`城市「${name}」不在城市分类中`);
      await trx.deleteFrom('reimb_city_tiers').where('city', '=', name).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `移除城市分类：${name}（原${ReimbCityTier.label(had.tier)}，现按其他城市）`, trx);
    });
  }

  // ---- 人员职级 ----

  async grades(q: ReimbGradeListQuery): Promise<PageResult<ReimbGradeRow>> {
    const db = this.db;
    let base = db.selectFrom('users').leftJoin('departments', 'departments.id', 'users.dept_id').leftJoin('reimb_profiles', 'reimb_profiles.user_id', 'users.id').where('users.status', '=', 1);
    if (q.keyword) base = base.where((eb) => eb.or([contains(eb.ref('users.name'), q.keyword!), contains(eb.ref('users.login_name'), q.keyword!)]));
    if (q.deptId) base = base.where('users.dept_id', '=', q.deptId);
    const total = Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const rows = await base
      .select(['users.id', 'users.name', 'users.login_name', 'users.position', 'departments.name as dept_name', 'departments.sort as dept_sort', 'reimb_profiles.grade'])
      .select((eb) => eb.exists(eb.selectFrom('departments as m').select('m.id').whereRef('m.manager_id', '=', 'users.id')).as('is_manager'))
      .orderBy('departments.sort')
      .orderBy('users.login_name')
      .limit(q.pageSize)
      .offset(offsetOf(q))
      .execute();
    return {
      total,
      items: rows.map((r) => {
        const isManager = Boolean(Number(r.is_manager));
        const grade = r.grade ?? '';
        return {
          userId: r.id, name: r.name, loginName: r.login_name, deptName: r.dept_name ?? '', position: r.position, grade,
          effectiveGrade: grade || (isManager ? ReimbGrade.manager : ReimbGrade.staff), isManager,
        };
      }),
    };
  }

  async saveGrade(req: FastifyRequest, userId: string, grade: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const user = await trx.selectFrom('users').select('name').where('id', '=', userId).executeTakeFirst();
      if (!user) throw notFound('人员不存在');
      const now = nowIso();
      await trx
        .insertInto('reimb_profiles')
        .values({ user_id: userId, grade, payee_name: '', payee_bank: '', payee_account: '', updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ grade, updated_at: now }))
        .execute();
      await this.app.oplog.record(req, OperationLogType.edit, `设置人员职级：${user.name} → ${grade ? ReimbGrade.label(grade) : '按默认规则（部门负责人/员工）'}`, trx);
    });
  }

  // ---- 发票期限 ----

  async saveInvoiceAge(req: FastifyRequest, days: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const before = await reimbSetting(trx, 'invoiceAgeDays');
      await putSetting(trx, 'invoiceAgeDays', JSON.stringify(days));
      await this.app.oplog.record(req, OperationLogType.edit, `修改发票期限：${before} 天 → ${days} 天`, trx);
    });
  }

  // ---- 会计系统接口 ----

  async saveAccounting(req: FastifyRequest, b: ReimbAccountingBody): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await storedAccounting(trx);
      const url = b.url.trim();
      // The credential typed now, else the one stored, else (first save) the environment's when it points at the same URL.
      let token = b.token.trim() || current?.token || '';
      if (!token && !current && b.mode === 'http') {
        const env = await reimbAccountingConfig(trx).catch(() => null);
        if (env?.mode === 'http' && env.url === url) token = env.token ?? '';
      }
      if (b.mode === 'http') {
        if (!url) throw refuse('请填写会计系统接口地址');
        const problem = accountingUrlProblem(url);
        if (problem) throw refuse(problem);
        if (!token) throw refuse('请填写会计系统接口密钥');
      } else if (url) {
        const problem = accountingUrlProblem(url);
        if (problem) throw refuse(problem);
      }
      const stored: StoredAccounting = { mode: b.mode, url, token, timeoutMs: b.timeoutMs };
      await putSetting(trx, ACCOUNTING_SETTING_KEY, JSON.stringify(stored));
      const what = b.mode === 'http' ? `i8 接口 ${url}（超时${b.timeoutMs}毫秒）${b.token.trim() ? '，密钥已更新' : '，密钥保留'}` : '模拟器';
      await this.app.oplog.record(req, OperationLogType.edit, `修改会计系统接口：${what}`, trx);
    });
  }

  /** Asks the configured accounting system about a voucher that does not exist: an answer (any) means it is reachable and accepts the credential. */
  async testAccounting(req: FastifyRequest): Promise<{ ok: boolean; message: string }> {
    const config = await reimbAccountingConfig(this.db).catch((e: unknown) => {
      throw refuse(`会计系统接口配置不完整：${e instanceof Error ? e.message : String(e)}`);
    });
    const gateway = createAccountingGateway({ db: this.app.db, synclog: this.app.synclog }, { ...config, timeoutMs: Math.min(config.timeoutMs ?? 15_000, 10_000) });
    try {
      await gateway.voucherState(`connection-test-${Date.now()}`, { userId: req.user?.id ?? null });
      return { ok: true, message: gateway.mode === 'http' ? '连接成功：会计系统已应答' : '连接成功（模拟器）' };
    } catch (e) {
      return { ok: false, message: `连接失败：${e instanceof Error ? e.message : String(e)}` };
    }
  }
}

async function putSetting(trx: Db, key: string, value: string): Promise<void> {
  await trx.insertInto('reimb_settings').values({ key, value }).onConflict((oc) => oc.column('key').doUpdateSet({ value })).execute();
}
