/**
 * The demo company's people and certificates (投标管理, issue 17): the standard certificate kinds, the
 * personnel facts of every staff user, professional titles and qualification certificates.
 *
 * - Kinds (fixed ids): 一级建造师, 二级建造师 (by speciality, 3 years), 安全生产考核合格证书 (A/B/C,
 *   3 years), 造价工程师 (一级/二级, 4 years), 监理工程师 (3 years), 咨询工程师（投资）(3 years),
 *   特种作业操作证 (6 years), 安全生产许可证 (3 years) and 资质证书 (5 years), the last two company
 *   certificates kept by a named holder. 安全生产考核合格证书 and 安全生产许可证 are renewed in the last 3
 *   months (延期办理期 3, DOMAIN "Tender management").
 * - People: every staff user; at the demo volume (`tenderPeople`, default 230) field staff holding only
 *   role 2 普通员工 are added until there are that many (they sign in to the workbench and 我的报销; an
 *   account with no role at all would be refused, SPEC section 5: 权限不足). ID card numbers carry a correct check character and the birth day.
 * - Certificates: about 2.8 per person (≈650 at 230), end days drawn so that about 8% have expired and
 *   about 10% expire within 90 days of the seed's day; the start is the end less the kind's years.
 *   Reminders already due are recorded as sent (the demo has been running), so the reminder job sends
 *   only the marks reached after the seed's day.
 */
import { defaultValidTo, Education, idCardCheckChar, reminderMark, STAFF_ROLE, yearsBefore } from '@zhyy/shared';
import type { TenderCertificateTable, TenderCertKindTable, TenderPersonnelTable, TenderTitleTable } from '../modules/tender/people/tables.js';
import { demoId } from '../platform/ids.js';
import { shanghaiDay } from '../platform/listing.js';
import { bulkInsert } from './bulk.js';
import { DEPARTMENTS } from './company.js';
import type { SeedContext } from './context.js';
import { GIVEN_NAMES, SURNAMES } from './names.js';
import { Rng } from './rng.js';

/** People at the demo volume; test servers pass fewer (helpers.ts TEST_DEMO). */
export const TENDER_PEOPLE_DEFAULT = 230;

interface KindSpec { key: string; name: string; levels: string[]; speciality: boolean; years: number | null; prefix: string; weight: number; specialities?: string[]; renewMonths?: number }

export const CERT_KINDS: KindSpec[] = [
  { key: 'jz1', name: '一级建造师', levels: [], speciality: true, years: 3, prefix: '苏132', weight: 8, specialities: ['建筑工程', '机电工程', '市政公用工程', '公路工程'] },
  { key: 'jz2', name: '二级建造师', levels: [], speciality: true, years: 3, prefix: '苏232', weight: 12, specialities: ['建筑工程', '机电工程', '市政公用工程'] },
  { key: 'aq', name: '安全生产考核合格证书', levels: ['A', 'B', 'C'], speciality: false, years: 3, prefix: '苏建安', weight: 22, renewMonths: 3 },
  { key: 'zj', name: '造价工程师', levels: ['一级', '二级'], speciality: true, years: 4, prefix: '建[造]', weight: 8, specialities: ['土木建筑工程', '安装工程'] },
  { key: 'jl', name: '监理工程师', levels: [], speciality: true, years: 3, prefix: '32', weight: 6, specialities: ['房屋建筑工程', '市政公用工程', '机电安装工程'] },
  { key: 'zx', name: '咨询工程师（投资）', levels: [], speciality: true, years: 3, prefix: '咨登', weight: 4, specialities: ['建筑', '市政公用工程'] },
  { key: 'tz', name: '特种作业操作证', levels: [], speciality: true, years: 6, prefix: 'T', weight: 12, specialities: ['电工作业', '焊接与热切割作业', '高处作业'] },
  { key: 'aqxk', name: '安全生产许可证', levels: [], speciality: false, years: 3, prefix: '（苏）JZ安许证字', weight: 0, renewMonths: 3 },
  { key: 'zz', name: '资质证书', levels: [], speciality: false, years: 5, prefix: 'D2320', weight: 0 },
];
export const certKindId = (key: string) => demoId(`tender-cert-kind:${key}`);

const ISSUERS: Record<string, string> = {
  jz1: '中华人民共和国住房和城乡建设部', jz2: '江苏省住房和城乡建设厅', aq: '江苏省住房和城乡建设厅', zj: '中华人民共和国住房和城乡建设部',
  jl: '中华人民共和国住房和城乡建设部', zx: '中国工程咨询协会', tz: '江苏省应急管理厅', aqxk: '江苏省住房和城乡建设厅', zz: '江苏省住房和城乡建设厅',
};
const TITLE_NAMES: Record<number, string[]> = {
  1: ['助理工程师', '助理经济师'], 2: ['工程师', '经济师', '会计师'], 3: ['高级工程师', '高级经济师'], 4: ['正高级工程师'],
};
const SPECIALITIES = ['建筑工程', '给排水', '电气', '暖通', '工程造价', '工程管理', '市政工程', '结构工程'];
const SCHOOLS = ['东南大学', '河海大学', '南京工业大学', '南京林业大学', '江苏大学', '扬州大学', '苏州科技大学', '南京工程学院', '江苏建筑职业技术学院'];
const MAJORS = ['土木工程', '工程管理', '工程造价', '建筑环境与能源应用工程', '给排水科学与工程', '电气工程及其自动化', '会计学', '市场营销'];
const REGIONS = ['320102', '320104', '320105', '320106', '320111', '320211', '320311', '320402', '320505', '321002'];
const FIELD_DEPTS = ['eng', 'eng1', 'eng2', 'quality'];
const FIELD_POSITIONS = ['施工员', '安全员', '质量员', '材料员', '资料员', '技术员', '项目经理', '机电工程师'];

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const addDays = (day: string, n: number) => {
  const t = new Date(`${day}T00:00:00Z`);
  t.setUTCDate(t.getUTCDate() + n);
  return t.toISOString().slice(0, 10);
};

function idCard(rng: Rng, birth: string, male: boolean): string {
  const seq = rng.int(0, 49) * 2 + (male ? 1 : 0);
  const first = `${rng.pick(REGIONS)}${birth.replace(/-/g, '')}${pad(rng.int(0, 9), 1)}${pad(seq % 100)}`;
  return first + idCardCheckChar(first);
}

export async function seedTenderPeople(ctx: SeedContext): Promise<void> {
  const { db, now } = ctx;
  const rng = new Rng(20261117);
  const at = now.toISOString();
  const today = shanghaiDay(now);
  const target = ctx.tenderPeople ?? TENDER_PEOPLE_DEFAULT;

  await bulkInsert(db, 'tender_cert_kinds', CERT_KINDS.map((k, i): TenderCertKindTable => ({
    id: certKindId(k.key), name: k.name, levels: JSON.stringify(k.levels), has_speciality: k.speciality ? 1 : 0, valid_years: k.years, renew_months: k.renewMonths ?? null,
    sort: (i + 1) * 10, updated_by: '系统', created_at: at, updated_at: at,
  })));

  // Staff: the demo users but the administrator, then field staff (role 2 普通员工: they sign in to file their
  // own reimbursements and approve in the workflow; no module of their own) up to the volume.
  const staff = ctx.users.filter((u) => !u.roles.includes('admin')).map((u) => ({ id: u.id, position: u.position }));
  if (staff.length < target) {
    const template = await db.selectFrom('users').select('password_hash').where('login_name', '=', 'demo1').executeTakeFirst();
    const names = new Set(ctx.users.map((u) => u.name));
    const logins = new Set(ctx.users.map((u) => u.loginName));
    const deptIds = new Map(DEPARTMENTS.map((d) => [d.key, demoId(`dept:${d.key}`)]));
    const rows = [];
    for (let i = 0; staff.length + rows.length < target && i < 10_000; i++) {
      const [sur, surPy] = rng.pick(SURNAMES);
      const [given, givenPy] = rng.pick(GIVEN_NAMES);
      if (names.has(sur + given)) continue;
      names.add(sur + given);
      let login = `${surPy}${givenPy}`;
      for (let n = 2; logins.has(login); n++) login = `${surPy}${givenPy}${n}`;
      logins.add(login);
      const id = demoId(`user:${login}`);
      const position = rng.pick(FIELD_POSITIONS);
      rows.push({
        id, login_name: login, name: sur + given, dept_id: deptIds.get(rng.pick(FIELD_DEPTS)) ?? null, position, phone: `1${rng.pick(['3', '5', '8'])}${String(rng.int(0, 999999999)).padStart(9, '0')}`,
        email: `${login}@huajian.example.cn`, password_hash: template?.password_hash ?? '', password_is_initial: 0, status: 1, failed_count: 0, failed_since: null, locked_until: null,
        last_login_at: null, created_at: at, updated_at: at,
      });
    }
    await bulkInsert(db, 'users', rows);
    await bulkInsert(db, 'user_roles', rows.map((r) => ({ user_id: r.id, role: STAFF_ROLE })));
    staff.push(...rows.map((r) => ({ id: r.id, position: r.position })));
  }

  const personnel: TenderPersonnelTable[] = [];
  const titles: TenderTitleTable[] = [];
  const certs: TenderCertificateTable[] = [];
  const thisYear = Number(today.slice(0, 4));
  const weighted = CERT_KINDS.flatMap((k) => Array<KindSpec>(k.weight).fill(k));
  const taken = new Set<string>();
  let titleSeq = 0;
  let certSeq = 0;
  for (const p of staff) {
    const male = rng.chance(0.7);
    const birth = `${thisYear - rng.int(24, 58)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
    const education = rng.pick([Education.college, Education.bachelor, Education.bachelor, Education.bachelor, Education.master, Education.highSchool]);
    const gradYear = Number(birth.slice(0, 4)) + (education === Education.master ? 25 : education === Education.highSchool ? 19 : education === Education.college ? 21 : 22);
    personnel.push({
      user_id: p.id, id_card: idCard(rng, birth, male), gender: male ? 1 : 2, birth_date: birth, education, school: education === Education.highSchool ? '江苏省建筑工程学校' : rng.pick(SCHOOLS),
      major: rng.pick(MAJORS), graduation_date: `${gradYear}-07-01`, hire_date: `${Math.min(thisYear, gradYear + rng.int(0, 10))}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`,
      remark: '', updated_by: '系统', created_at: at, updated_at: at,
    });
    // Titles: about half hold one, a few two (a lower one before a higher one).
    if (rng.chance(0.5)) {
      const top = rng.pick([1, 2, 2, 2, 3, 3, 4]);
      const levels = top > 1 && rng.chance(0.3) ? [top - 1, top] : [top];
      for (const [i, level] of levels.entries()) {
        titleSeq++;
        titles.push({
          id: demoId(`tender-title:${titleSeq}`), user_id: p.id, level, title_name: rng.pick(TITLE_NAMES[level]!), speciality: rng.pick(SPECIALITIES),
          cert_no: `苏职称${thisYear - 8 + i * 4}${pad(titleSeq, 6)}`, issuer: level >= 3 ? '江苏省人力资源和社会保障厅' : '南京市人力资源和社会保障局',
          issue_date: `${thisYear - 8 + i * 4 + rng.int(0, 3)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`, remark: '', updated_by: '系统', created_at: at, updated_at: at,
        });
      }
    }
    // Certificates: 1–4 of different kinds (2.8 on average).
    const n = rng.pick([1, 2, 2, 3, 3, 3, 3, 4, 4, 3]);
    const kinds = new Set<string>();
    for (let tries = 0; kinds.size < n && tries < 30; tries++) {
      const k = rng.pick(weighted);
      if (kinds.has(k.key)) continue;
      kinds.add(k.key);
      certSeq++;
      // 8% expired (up to a year ago), 10% within 90 days, the rest 91 days to the kind's years ahead.
      const roll = rng.next();
      const left = roll < 0.08 ? -rng.int(1, 365) : roll < 0.18 ? rng.int(0, 90) : rng.int(91, 365 * (k.years ?? 3) - 30);
      // The start is the end less the kind's years, and the end derived from it as the editor derives it
      // (defaultValidTo; a start on 29 February moves the end by a day).
      const start = yearsBefore(addDays(addDays(today, left), 1), k.years ?? 3);
      const validTo = defaultValidTo(start, k.years ?? 3)!;
      let no = '';
      do no = `${k.prefix}${pad(rng.int(0, 99999999), 8)}`;
      while (taken.has(`${k.key}|${no}`));
      taken.add(`${k.key}|${no}`);
      certs.push({
        id: demoId(`tender-cert:${certSeq}`), user_id: p.id, kind_id: certKindId(k.key), level: k.levels.length ? rng.pick(k.levels) : '',
        speciality: k.specialities ? rng.pick(k.specialities) : '', cert_no: no, issuer: ISSUERS[k.key] ?? '', valid_from: start,
        valid_to: validTo, company: k.key === 'tz' ? '' : '华建工程技术服务有限公司', remark: '', updated_by: '系统', created_at: at, updated_at: at,
      });
    }
  }
  await bulkInsert(db, 'tender_personnel', personnel);
  await bulkInsert(db, 'tender_titles', titles);
  await bulkInsert(db, 'tender_certificates', certs);
  const reminded = certs.flatMap((c) => {
    const mark = reminderMark(c.valid_to, today);
    return mark === null ? [] : [{ cert_id: c.id, valid_to: c.valid_to!, mark, sent_on: today, created_at: at }];
  });
  await bulkInsert(db, 'tender_cert_reminders', reminded);
}
