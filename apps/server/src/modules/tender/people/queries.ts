/**
 * Reading people and certificates: the lists (with their filters, shared by the exports), the
 * personnel detail, 证书汇总 and the dashboard card. A certificate's state is computed from its end
 * day against today (Asia/Shanghai), never stored: expired before today, expiring within 90 days; so is
 * 可办理延期 (today in the renewal window of its kind: at most the kind's 延期办理期 before the end day).
 */
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import {
  CERT_WARN_DAYS, certState, daysLeft, inRenewalWindow, maskIdCard, renewalLastEnd, renewalStart,
  type CertificateQuery, type CertificateRow, type CertificateSummary, type CertKind, type PersonnelFacts, type PersonnelOption,
  type PersonnelQuery, type PersonnelRow, type TitleQuery, type TitleRow, type PageResult,
} from '@zhyy/shared';
import type { Database } from '../../../db/schema.js';
import { contains, offsetOf, shanghaiDay, sortOf } from '../../../platform/listing.js';
import { batches } from '../../../platform/xlsx.js';
import './tables.js';

type Db = Kysely<Database>;

/** 'YYYY-MM-DD' n days after a day. */
export function dayAfter(day: string, n: number): string {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
}

export const today = () => shanghaiDay();

/** Users who are personnel: everyone but the system administrators. */
const notAdmin = () => (eb: any) => eb.not(eb.exists(eb.selectFrom('user_roles as ar').select('ar.user_id').whereRef('ar.user_id', '=', 'u.id').where('ar.role', '=', 'admin')));

// ---- 人员信息 ----

type PersonnelFilter = Omit<PersonnelQuery, 'pageIndex' | 'pageSize'>;

function personnelBase(db: Db, f: PersonnelFilter) {
  return db
    .selectFrom('users as u')
    .leftJoin('tender_personnel as p', 'p.user_id', 'u.id')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .where(notAdmin())
    .$if(!f.includeDisabled, (q) => q.where('u.status', '=', 1))
    .$if(!!f.keyword, (q) => q.where((eb) => eb.or([contains(eb.ref('u.name'), f.keyword!), contains(eb.ref('u.login_name'), f.keyword!)])))
    .$if(!!f.deptId, (q) => q.where('u.dept_id', '=', f.deptId!))
    .$if(f.education !== undefined, (q) => q.where(sql<number>`coalesce(p.education, 0)`, '=', f.education!))
    .$if(!!f.kindId, (q) => q.where((eb) => eb.exists(eb.selectFrom('tender_certificates as kc').select('kc.id').whereRef('kc.user_id', '=', 'u.id').where('kc.kind_id', '=', f.kindId!))));
}

export async function personnelCount(db: Db, f: PersonnelFilter): Promise<number> {
  return Number((await personnelBase(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

async function personnelRows(db: Db, f: PersonnelFilter, offset: number, limit: number): Promise<PersonnelRow[]> {
  const day = today();
  const warn = dayAfter(day, CERT_WARN_DAYS);
  const sort = sortOf(f.sort, { name: 'u.name', deptName: 'd.name', education: 'p.education', titleLevel: 'title_level', certCount: 'cert_count' } as const, { column: 'd.name', order: 'asc' });
  const rows = await personnelBase(db, f)
    .select((eb) => [
      'u.id', 'u.name', 'u.login_name', 'u.dept_id', 'd.name as dept_name', 'u.position', 'u.status',
      'p.id_card', 'p.gender', 'p.birth_date', 'p.education', 'p.school', 'p.major',
      eb.selectFrom('tender_titles as t').select((e) => e.fn.max('t.level').as('m')).whereRef('t.user_id', '=', 'u.id').as('title_level'),
      eb.selectFrom('tender_titles as t').select((e) => e.fn.countAll().as('n')).whereRef('t.user_id', '=', 'u.id').as('title_count'),
      eb.selectFrom('tender_certificates as c').select((e) => e.fn.countAll().as('n')).whereRef('c.user_id', '=', 'u.id').as('cert_count'),
      eb.selectFrom('tender_certificates as c').select((e) => e.fn.countAll().as('n')).whereRef('c.user_id', '=', 'u.id').where('c.valid_to', '<', day).as('expired_count'),
      eb.selectFrom('tender_certificates as c').select((e) => e.fn.countAll().as('n')).whereRef('c.user_id', '=', 'u.id').where('c.valid_to', '>=', day).where('c.valid_to', '<=', warn).as('expiring_count'),
    ])
    .orderBy(sql.ref(sort.column), sort.order)
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    userId: r.id, name: r.name, loginName: r.login_name, deptId: r.dept_id, deptName: r.dept_name ?? '', position: r.position, active: r.status === 1,
    idCard: maskIdCard(r.id_card), gender: r.gender ?? 0, birthDate: r.birth_date ?? null, education: r.education ?? 0, school: r.school ?? '', major: r.major ?? '',
    titleLevel: Number(r.title_level ?? 0), titleCount: Number(r.title_count ?? 0), certCount: Number(r.cert_count ?? 0),
    expiredCount: Number(r.expired_count ?? 0), expiringCount: Number(r.expiring_count ?? 0),
  }));
}

export async function personnelPage(db: Db, q: PersonnelQuery): Promise<PageResult<PersonnelRow>> {
  const [total, items] = await Promise.all([personnelCount(db, q), personnelRows(db, q, offsetOf(q), q.pageSize)]);
  return { total, items };
}

export const personnelBatches = (db: Db, f: PersonnelFilter) => batches((offset, limit) => personnelRows(db, f, offset, limit));

export async function personnelFacts(db: Db, userId: string): Promise<PersonnelFacts | null> {
  const r = await db
    .selectFrom('users as u')
    .leftJoin('tender_personnel as p', 'p.user_id', 'u.id')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .select(['u.id', 'u.name', 'u.login_name', 'd.name as dept_name', 'u.position', 'u.phone', 'u.status', 'p.id_card', 'p.gender', 'p.birth_date', 'p.education', 'p.school', 'p.major', 'p.graduation_date', 'p.hire_date', 'p.remark', 'p.updated_by', 'p.updated_at'])
    .where('u.id', '=', userId)
    .where(notAdmin())
    .executeTakeFirst();
  if (!r) return null;
  return {
    userId: r.id, name: r.name, loginName: r.login_name, deptName: r.dept_name ?? '', position: r.position, phone: r.phone, active: r.status === 1,
    idCard: r.id_card ?? '', gender: r.gender ?? 0, birthDate: r.birth_date ?? null, education: r.education ?? 0, school: r.school ?? '', major: r.major ?? '',
    graduationDate: r.graduation_date ?? null, hireDate: r.hire_date ?? null, remark: r.remark ?? '', updatedBy: r.updated_by ?? '', updatedAt: r.updated_at ?? null,
  };
}

/** The holders a title or certificate may be given to: active personnel, by name or login, at most 50. */
export async function personnelOptions(db: Db, keyword?: string): Promise<PersonnelOption[]> {
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .select(['u.id', 'u.name', 'u.login_name', 'd.name as dept_name'])
    .where('u.status', '=', 1)
    .where(notAdmin())
    .$if(!!keyword, (q) => q.where((eb) => eb.or([contains(eb.ref('u.name'), keyword!), contains(eb.ref('u.login_name'), keyword!)])))
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(50)
    .execute();
  return rows.map((r) => ({ userId: r.id, name: r.name, loginName: r.login_name, deptName: r.dept_name ?? '' }));
}

// ---- 职称 ----

type TitleFilter = Omit<TitleQuery, 'pageIndex' | 'pageSize'>;

function titleBase(db: Db, f: TitleFilter) {
  return db
    .selectFrom('tender_titles as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .$if(!!f.keyword, (q) => q.where((eb) => eb.or([contains(eb.ref('u.name'), f.keyword!), contains(eb.ref('t.cert_no'), f.keyword!), contains(eb.ref('t.title_name'), f.keyword!)])))
    .$if(f.level !== undefined, (q) => q.where('t.level', '=', f.level!))
    .$if(!!f.speciality, (q) => q.where((eb) => contains(eb.ref('t.speciality'), f.speciality!)))
    .$if(!!f.userId, (q) => q.where('t.user_id', '=', f.userId!))
    .$if(!!f.deptId, (q) => q.where('u.dept_id', '=', f.deptId!));
}

export async function titleCount(db: Db, f: TitleFilter): Promise<number> {
  return Number((await titleBase(db, f).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

async function titleRows(db: Db, f: TitleFilter, offset: number, limit: number): Promise<TitleRow[]> {
  const sort = sortOf(f.sort, { holderName: 'u.name', level: 't.level', issueDate: 't.issue_date', certNo: 't.cert_no' } as const, { column: 't.issue_date', order: 'desc' });
  const rows = await titleBase(db, f)
    .select(['t.id', 't.user_id', 'u.name as holder_name', 'd.name as dept_name', 't.level', 't.title_name', 't.speciality', 't.cert_no', 't.issuer', 't.issue_date', 't.remark', 't.updated_by', 't.updated_at'])
    .orderBy(sql.ref(sort.column), sort.order)
    .orderBy('t.id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    id: r.id, userId: r.user_id, holderName: r.holder_name, deptName: r.dept_name ?? '', level: r.level, titleName: r.title_name, speciality: r.speciality, certNo: r.cert_no,
    issuer: r.issuer, issueDate: r.issue_date, remark: r.remark, updatedBy: r.updated_by, updatedAt: r.updated_at,
  }));
}

export async function titlePage(db: Db, q: TitleQuery): Promise<PageResult<TitleRow>> {
  const [total, items] = await Promise.all([titleCount(db, q), titleRows(db, q, offsetOf(q), q.pageSize)]);
  return { total, items };
}
export const titleBatches = (db: Db, f: TitleFilter) => batches((offset, limit) => titleRows(db, f, offset, limit));
export async function titleById(db: Db, id: string): Promise<TitleRow | null> {
  const t = await db.selectFrom('tender_titles').select('user_id').where('id', '=', id).executeTakeFirst();
  if (!t) return null;
  return (await titleRows(db, { userId: t.user_id }, 0, 500)).find((r) => r.id === id) ?? null;
}

// ---- 资格证书 ----

type CertFilter = Omit<CertificateQuery, 'pageIndex' | 'pageSize'> & { ids?: string[] };

/** The condition of a state on `day` (the same split as certState). */
export function stateWhere(eb: any, state: string, day: string): Expression<SqlBool> {
  const warn = dayAfter(day, CERT_WARN_DAYS);
  if (state === 'permanent') return eb('c.valid_to', 'is', null);
  if (state === 'expired') return eb('c.valid_to', '<', day);
  if (state === 'expiring') return eb.and([eb('c.valid_to', '>=', day), eb('c.valid_to', '<=', warn)]);
  return eb('c.valid_to', '>', warn);
}

/** The kinds' 延期办理期 range (CertKindBody). */
const RENEW_MONTHS = Array.from({ length: 24 }, (_, i) => i + 1);

/**
 * 可办理延期 on `day` (needs the kind as k): not expired, and the end day at most renewalLastEnd(day, the
 * kind's months), the same split as inRenewalWindow; false for kinds without a window or open-ended ones.
 */
export function renewableWhere(eb: any, day: string): Expression<SqlBool> {
  let last = eb.case(eb.ref('k.renew_months'));
  for (const m of RENEW_MONTHS) last = last.when(m).then(renewalLastEnd(day, m));
  return eb.and([eb('c.valid_to', '>=', day), eb('c.valid_to', '<=', last.end())]);
}

function certBase(db: Db, f: CertFilter, day: string) {
  return db
    .selectFrom('tender_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
    .leftJoin('departments as d', 'd.id', 'u.dept_id')
    .$if(!!f.ids, (q) => q.where('c.id', 'in', f.ids!.length ? f.ids! : ['']))
    .$if(!!f.keyword, (q) => q.where((eb) => eb.or([contains(eb.ref('u.name'), f.keyword!), contains(eb.ref('c.cert_no'), f.keyword!)])))
    .$if(!!f.kindId, (q) => q.where('c.kind_id', '=', f.kindId!))
    .$if(!!f.level, (q) => q.where('c.level', '=', f.level!))
    .$if(!!f.state, (q) => q.where((eb) => (f.state === 'renewable' ? renewableWhere(eb, day) : stateWhere(eb, f.state!, day))))
    .$if(!!f.userId, (q) => q.where('c.user_id', '=', f.userId!))
    // Active holders only, as 证书汇总 counts (a person's own list and chosen ids are whole).
    .$if(!f.includeDisabled && !f.userId && !f.ids, (q) => q.where('u.status', '=', 1))
    .$if(!!f.deptId, (q) => q.where('u.dept_id', '=', f.deptId!))
    .$if(f.expiringWithin !== undefined, (q) => q.where('c.valid_to', '>=', day).where('c.valid_to', '<=', dayAfter(day, f.expiringWithin!)));
}

export async function certCount(db: Db, f: CertFilter): Promise<number> {
  return Number((await certBase(db, f, today()).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
}

async function certRows(db: Db, f: CertFilter, offset: number, limit: number, soonestFirst = false): Promise<CertificateRow[]> {
  const day = today();
  const sort = soonestFirst
    ? { column: 'c.valid_to' as const, order: 'asc' as const }
    : sortOf(f.sort, { holderName: 'u.name', kindName: 'k.sort', certNo: 'c.cert_no', validFrom: 'c.valid_from', validTo: 'c.valid_to', level: 'c.level' } as const, { column: 'c.updated_at', order: 'desc' });
  const rows = await certBase(db, f, day)
    .select(['c.id', 'c.user_id', 'u.name as holder_name', 'd.name as dept_name', 'c.kind_id', 'k.name as kind_name', 'c.level', 'c.speciality', 'c.cert_no', 'c.issuer', 'c.valid_from', 'c.valid_to', 'c.company', 'c.remark', 'c.updated_by', 'c.updated_at', 'k.renew_months'])
    .orderBy(sql.ref(sort.column), sort.order)
    .orderBy('u.name')
    .orderBy('c.id')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    id: r.id, userId: r.user_id, holderName: r.holder_name, deptName: r.dept_name ?? '', kindId: r.kind_id, kindName: r.kind_name, level: r.level, speciality: r.speciality,
    certNo: r.cert_no, issuer: r.issuer, validFrom: r.valid_from, validTo: r.valid_to, company: r.company, remark: r.remark,
    state: certState(r.valid_to, day), daysLeft: r.valid_to ? daysLeft(r.valid_to, day) : null,
    renewFrom: renewalStart(r.valid_to, r.renew_months), renewable: inRenewalWindow(r.valid_to, r.renew_months, day), updatedBy: r.updated_by, updatedAt: r.updated_at,
  }));
}

export async function certPage(db: Db, q: CertificateQuery): Promise<PageResult<CertificateRow>> {
  const [total, items] = await Promise.all([certCount(db, q), certRows(db, q, offsetOf(q), q.pageSize)]);
  return { total, items };
}
export const certBatches = (db: Db, f: CertFilter) => batches((offset, limit) => certRows(db, f, offset, limit));
export async function certById(db: Db, id: string): Promise<CertificateRow | null> {
  return (await certRows(db, { ids: [id] }, 0, 1))[0] ?? null;
}
export async function certsOfUser(db: Db, userId: string): Promise<CertificateRow[]> {
  return certRows(db, { userId, sort: { field: 'kindName', order: 'ascend' } }, 0, 500);
}
export async function titlesOfUser(db: Db, userId: string): Promise<TitleRow[]> {
  return titleRows(db, { userId, sort: { field: 'level', order: 'descend' } }, 0, 500);
}

/** 证书汇总's list: expired or expiring within 90 days, soonest first (the longest expired first). */
export async function certAlerts(db: Db, q: { pageIndex: number; pageSize: number; kindId?: string | undefined }): Promise<PageResult<CertificateRow>> {
  const day = today();
  const f: CertFilter = { ...(q.kindId ? { kindId: q.kindId } : {}) };
  // Like the summary: the certificates of people still at the company (active users).
  const base = () => certBase(db, f, day).where('u.status', '=', 1).where('c.valid_to', '<=', dayAfter(day, CERT_WARN_DAYS));
  const total = Number((await base().select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const ids = await base().select('c.id').orderBy('c.valid_to').orderBy('u.name').orderBy('c.id').limit(q.pageSize).offset(offsetOf(q)).execute();
  const rows = await certRows(db, { ids: ids.map((r) => r.id) }, 0, q.pageSize, true);
  return { total, items: rows };
}

// ---- 证书汇总与工作台 ----

export async function certSummary(db: Db): Promise<CertificateSummary> {
  const day = today();
  const kinds = await certKinds(db);
  const rows = await db
    .selectFrom('tender_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    // Disabled users (people who left) no longer hold certificates for the company: not counted.
    .where('u.status', '=', 1)
    .select((eb) => [
      'c.kind_id', 'c.level',
      eb.fn.countAll<number>().as('total'),
      eb.fn.sum<number>(eb.case().when(stateWhere(eb, 'expired', day)).then(1).else(0).end()).as('expired'),
      eb.fn.sum<number>(eb.case().when(stateWhere(eb, 'expiring', day)).then(1).else(0).end()).as('expiring'),
    ])
    .groupBy(['c.kind_id', 'c.level'])
    .execute();
  const byKind = new Map<string, typeof rows>();
  for (const r of rows) byKind.set(r.kind_id, [...(byKind.get(r.kind_id) ?? []), r]);
  const out: CertificateSummary = { today: day, warnDays: CERT_WARN_DAYS, total: 0, valid: 0, expiring: 0, expired: 0, renewable: 0, kinds: [], titles: [] };
  for (const k of kinds) {
    const levels = byKind.get(k.id) ?? [];
    const order = (l: string) => (k.levels.includes(l) ? k.levels.indexOf(l) : k.levels.length);
    const byLevel = levels
      .map((l) => {
        const total = Number(l.total), expired = Number(l.expired ?? 0), expiring = Number(l.expiring ?? 0);
        return { level: l.level, total, expired, expiring, valid: total - expired - expiring };
      })
      .sort((a, b) => order(a.level) - order(b.level) || a.level.localeCompare(b.level));
    const sum = (key: 'total' | 'valid' | 'expiring' | 'expired') => byLevel.reduce((s, l) => s + l[key], 0);
    const kind = { kindId: k.id, kindName: k.name, total: sum('total'), valid: sum('valid'), expiring: sum('expiring'), expired: sum('expired'), byLevel };
    out.kinds.push(kind);
    out.total += kind.total;
    out.valid += kind.valid;
    out.expiring += kind.expiring;
    out.expired += kind.expired;
  }
  const titles = await db
    .selectFrom('tender_titles as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .where('u.status', '=', 1)
    .select((eb) => ['t.level', eb.fn.countAll<number>().as('n')])
    .groupBy('t.level')
    .orderBy('t.level')
    .execute();
  out.titles = titles.map((t) => ({ level: t.level, total: Number(t.n) }));
  // 可办理延期: the list's state 'renewable', of the same people (active users).
  out.renewable = Number(
    (
      await db
        .selectFrom('tender_certificates as c')
        .innerJoin('users as u', 'u.id', 'c.user_id')
        .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
        .where('u.status', '=', 1)
        .where((eb) => renewableWhere(eb, day))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  return out;
}

export async function certCard(db: Db): Promise<{ expired: number; expiring: number; warnDays: number }> {
  const day = today();
  const r = await db
    .selectFrom('tender_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .where('u.status', '=', 1)
    .select((eb) => [
      eb.fn.sum<number>(eb.case().when(stateWhere(eb, 'expired', day)).then(1).else(0).end()).as('expired'),
      eb.fn.sum<number>(eb.case().when(stateWhere(eb, 'expiring', day)).then(1).else(0).end()).as('expiring'),
    ])
    .executeTakeFirstOrThrow();
  return { expired: Number(r.expired ?? 0), expiring: Number(r.expiring ?? 0), warnDays: CERT_WARN_DAYS };
}

// ---- 证书种类 ----

export async function certKinds(db: Db): Promise<CertKind[]> {
  const rows = await db
    .selectFrom('tender_cert_kinds as k')
    .select((eb) => ['k.id', 'k.name', 'k.levels', 'k.has_speciality', 'k.valid_years', 'k.renew_months', 'k.sort', eb.selectFrom('tender_certificates as c').select((e) => e.fn.countAll().as('n')).whereRef('c.kind_id', '=', 'k.id').as('cert_count')])
    .orderBy('k.sort')
    .orderBy('k.name')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, levels: parseLevels(r.levels), hasSpeciality: r.has_speciality === 1, validYears: r.valid_years, renewMonths: r.renew_months, sort: r.sort, certCount: Number(r.cert_count ?? 0) }));
}

export function parseLevels(text: string): string[] {
  try {
    const v = JSON.parse(text) as unknown;
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}
