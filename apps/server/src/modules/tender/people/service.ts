/**
 * Writing people and certificates: personnel facts, titles, certificates and certificate kinds. Every
 * change writes the operation log (who and when, before → after for edits). A certificate number once
 * per kind and a title number once are the database's unique indexes: the service checks first for a
 * readable answer, and turns a concurrent writer's unique violation into the same answer. A
 * certificate's end day, when not given, is derived from its kind's default years (defaultValidTo). A
 * certificate added, changed or deleted sets its holder's projects' stored 注册建造师 flag again in the same
 * transaction (refreshRegisteredFlags, from the holder's certificates as the project rule derives it).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { CertificateBody, CertKindBody, defaultValidTo, Education, Gender, OperationLogType, PersonnelBody, TitleBody, TitleLevel } from '@zhyy/shared';
import type { z } from 'zod';
import type { Database } from '../../../db/schema.js';
import { conflict, notFound, refuse } from '../../../platform/envelope.js';
import { newId } from '../../../platform/ids.js';
import { nowIso } from '../../../platform/time.js';
import { currentUser } from '../../../platform/context.js';
import { parseLevels } from './queries.js';
import { deleteOwnerAttachments } from '../attachment/attachments.js';
import { refreshRegisteredFlags } from '../contracts/projects.js';
import { MANAGER_INDEX } from '../../../db/migrations/0036_tender_contracts.js';
import './tables.js';

type Db = Kysely<Database>;
type Parsed<T extends z.ZodType> = z.output<T>;

/** A unique index broke (either engine). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e || typeof e !== 'object') return false;
  return e.code === '23505' || (String(e.code ?? '').startsWith('SQLITE_CONSTRAINT') && String(e.message ?? '').includes('UNIQUE'));
}

/**
 * A foreign key broke (either engine): a certificate kind deleted while a certificate of it was being
 * saved by another request, or the other way round. The checks in the transactions see no such row;
 * only the database sees both, and its refusal becomes a Chinese answer instead of a 500.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  if (!e || typeof e !== 'object') return false;
  return e.code === '23503' || e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** The registered-manager index of projects broke (either engine): a project of the holder was saved at the same moment. */
function isManagerIndexViolation(err: unknown): boolean {
  const e = err as { constraint?: string; message?: string } | null;
  return isUniqueViolation(err) && (e?.constraint === MANAGER_INDEX || String(e?.message ?? '').includes(MANAGER_INDEX) || String(e?.message ?? '').includes('projects.manager_id'));
}
const MANAGER_RACE = '持证人负责的项目刚被修改，请重试';

const orNone = (v: string | null | undefined) => (v ? v : '无');
const renewText = (m: number | null) => (m ? `${m}个月` : '无');

/** The holders' projects whose 注册建造师 flag a certificate change set again, for its log line ('' when none). */
async function refreshFlags(k: Db, userIds: string[]): Promise<string> {
  const changed = [];
  for (const id of new Set(userIds)) changed.push(...(await refreshRegisteredFlags(k, id)));
  return changed.length ? `；项目注册建造师标记：${changed.map((p) => `${p.code} ${p.name} ${p.registered ? '否 → 是' : '是 → 否'}`).join('，')}` : '';
}

export class PeopleService {
  constructor(private readonly app: FastifyInstance) {}

  private get db(): Db {
    return this.app.db.kysely;
  }

  private who(req: FastifyRequest): string {
    return currentUser(req).name;
  }

  private async holder(k: Db, userId: string): Promise<{ name: string; login_name: string }> {
    const u = await k
      .selectFrom('users as u')
      .select(['u.name', 'u.login_name'])
      .where('u.id', '=', userId)
      .where((eb) => eb.not(eb.exists(k.selectFrom('user_roles').select('user_id').where('user_id', '=', userId).where('role', '=', 'admin'))))
      .executeTakeFirst();
    if (!u) throw notFound('人员不存在');
    return u;
  }

  // ---- 人员信息 ----

  async savePersonnel(req: FastifyRequest, b: Parsed<typeof PersonnelBody>): Promise<void> {
    await this.db.transaction().execute(async (k) => {
      const u = await this.holder(k, b.userId);
      const before = await k.selectFrom('tender_personnel').selectAll().where('user_id', '=', b.userId).executeTakeFirst();
      const now = nowIso();
      const values = {
        id_card: b.idCard, gender: b.gender, birth_date: b.birthDate, education: b.education, school: b.school, major: b.major,
        graduation_date: b.graduationDate, hire_date: b.hireDate, remark: b.remark, updated_by: this.who(req), updated_at: now,
      };
      await k
        .insertInto('tender_personnel')
        .values({ user_id: b.userId, created_at: now, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
      const changes: string[] = [];
      const cmp = (label: string, a: unknown, c: unknown) => {
        if ((a ?? '') !== (c ?? '')) changes.push(`${label} ${orNone(String(a ?? ''))} → ${orNone(String(c ?? ''))}`);
      };
      // The ID card number is never written into the log in full.
      if ((before?.id_card ?? '') !== b.idCard) changes.push('身份证号已修改');
      cmp('性别', Gender.label(before?.gender ?? 0), Gender.label(b.gender));
      cmp('出生日期', before?.birth_date, b.birthDate);
      cmp('学历', Education.label(before?.education ?? 0), Education.label(b.education));
      cmp('毕业院校', before?.school, b.school);
      cmp('专业', before?.major, b.major);
      cmp('毕业日期', before?.graduation_date, b.graduationDate);
      cmp('入职日期', before?.hire_date, b.hireDate);
      cmp('备注', before?.remark, b.remark);
      await this.app.oplog.record(req, before ? OperationLogType.edit : OperationLogType.add, `修改人员信息：${u.name}（${u.login_name}）${changes.length ? changes.join('；') : '无变化'}`, k);
    });
  }

  // ---- 职称 ----

  async saveTitle(req: FastifyRequest, b: Parsed<typeof TitleBody>): Promise<string> {
    try {
      return await this.db.transaction().execute(async (k) => {
        const u = await this.holder(k, b.userId);
        const dup = await k.selectFrom('tender_titles').select('id').where('cert_no', '=', b.certNo).$if(!!b.id, (q) => q.where('id', '<>', b.id!)).executeTakeFirst();
        if (dup) throw conflict(`职称证书编号「${b.certNo}」已存在`);
        const now = nowIso();
        const values = { user_id: b.userId, level: b.level, title_name: b.titleName, speciality: b.speciality, cert_no: b.certNo, issuer: b.issuer, issue_date: b.issueDate, remark: b.remark, updated_by: this.who(req), updated_at: now };
        const what = `${u.name} ${TitleLevel.label(b.level)} ${b.titleName}（${b.certNo}）`;
        if (!b.id) {
          const id = newId();
          await k.insertInto('tender_titles').values({ id, created_at: now, ...values }).execute();
          await this.app.oplog.record(req, OperationLogType.add, `新增职称：${what}`, k);
          return id;
        }
        const before = await k.selectFrom('tender_titles as t').innerJoin('users as u', 'u.id', 't.user_id').select(['t.level', 't.title_name', 't.cert_no', 't.issue_date', 'u.name']).where('t.id', '=', b.id).executeTakeFirst();
        if (!before) throw notFound('职称不存在');
        await k.updateTable('tender_titles').set(values).where('id', '=', b.id).execute();
        await this.app.oplog.record(req, OperationLogType.edit, `修改职称：${before.name} ${TitleLevel.label(before.level)} ${before.title_name}（${before.cert_no}，${before.issue_date}） → ${what.slice(0, -1)}，${b.issueDate}）`, k);
        return b.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`职称证书编号「${b.certNo}」已存在`);
      throw err;
    }
  }

  async deleteTitle(req: FastifyRequest, id: string): Promise<void> {
    await this.db.transaction().execute(async (k) => {
      const t = await k.selectFrom('tender_titles as t').innerJoin('users as u', 'u.id', 't.user_id').select(['t.level', 't.title_name', 't.cert_no', 'u.name']).where('t.id', '=', id).executeTakeFirst();
      if (!t) throw notFound('职称不存在');
      await k.deleteFrom('tender_titles').where('id', '=', id).execute();
      await this.app.oplog.record(req, OperationLogType.delete, `删除职称：${t.name} ${TitleLevel.label(t.level)} ${t.title_name}（${t.cert_no}）`, k);
    });
    // Its scans go with it, once the record is gone (a leftover object is harmless, a row pointing at a deleted record is not).
    await deleteOwnerAttachments(this.app, 'title', [id]);
  }

  // ---- 资格证书 ----

  async saveCertificate(req: FastifyRequest, b: Parsed<typeof CertificateBody>): Promise<string> {
    try {
      return await this.db.transaction().execute(async (k) => {
        const u = await this.holder(k, b.userId);
        const kind = await k.selectFrom('tender_cert_kinds').selectAll().where('id', '=', b.kindId).executeTakeFirst();
        if (!kind) throw refuse('证书种类不存在');
        const levels = parseLevels(kind.levels);
        if (levels.length && !levels.includes(b.level)) throw refuse(`请选择${kind.name}的级别（${levels.join('、')}）`);
        if (!levels.length && b.level) throw refuse(`${kind.name}不分级别`);
        if (kind.has_speciality && !b.speciality) throw refuse(`请填写${kind.name}的专业`);
        if (!kind.has_speciality && b.speciality) throw refuse(`${kind.name}不分专业，请不要填写专业`);
        const dup = await k.selectFrom('tender_certificates').select('id').where('kind_id', '=', b.kindId).where('cert_no', '=', b.certNo).$if(!!b.id, (q) => q.where('id', '<>', b.id!)).executeTakeFirst();
        if (dup) throw conflict(`${kind.name}证书编号「${b.certNo}」已存在`);
        const validTo = b.permanent ? null : (b.validTo ?? defaultValidTo(b.validFrom, kind.valid_years));
        const now = nowIso();
        const values = {
          user_id: b.userId, kind_id: b.kindId, level: b.level, speciality: b.speciality, cert_no: b.certNo, issuer: b.issuer,
          valid_from: b.validFrom, valid_to: validTo, company: b.company, remark: b.remark, updated_by: this.who(req), updated_at: now,
        };
        const what = `${u.name} ${kind.name}${b.level ? ` ${b.level}` : ''}（${b.certNo}，${b.validFrom} 至 ${validTo ?? '长期'}）`;
        if (!b.id) {
          const id = newId();
          await k.insertInto('tender_certificates').values({ id, created_at: now, ...values }).execute();
          const flags = await refreshFlags(k, [b.userId]);
          await this.app.oplog.record(req, OperationLogType.add, `新增资格证书：${what}${flags}`, k);
          return id;
        }
        const before = await k
          .selectFrom('tender_certificates as c')
          .innerJoin('users as u', 'u.id', 'c.user_id')
          .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
          .select(['c.user_id', 'u.name', 'k.name as kind_name', 'c.level', 'c.cert_no', 'c.valid_from', 'c.valid_to'])
          .where('c.id', '=', b.id)
          .executeTakeFirst();
        if (!before) throw notFound('资格证书不存在');
        await k.updateTable('tender_certificates').set(values).where('id', '=', b.id).execute();
        // The holder may have changed: both the former and the new one.
        const flags = await refreshFlags(k, [before.user_id, b.userId]);
        await this.app.oplog.record(req, OperationLogType.edit, `修改资格证书：${before.name} ${before.kind_name}${before.level ? ` ${before.level}` : ''}（${before.cert_no}，${before.valid_from} 至 ${before.valid_to ?? '长期'}） → ${what}${flags}`, k);
        return b.id;
      });
    } catch (err) {
      if (isManagerIndexViolation(err)) throw conflict(MANAGER_RACE);
      if (isUniqueViolation(err)) throw conflict(`证书编号「${b.certNo}」已存在`);
      if (isForeignKeyViolation(err)) throw conflict('证书种类或持证人刚被删除，请刷新后重新选择');
      throw err;
    }
  }

  async deleteCertificate(req: FastifyRequest, id: string): Promise<void> {
    try {
      await this.db.transaction().execute(async (k) => {
        const c = await k
          .selectFrom('tender_certificates as c')
          .innerJoin('users as u', 'u.id', 'c.user_id')
          .innerJoin('tender_cert_kinds as k', 'k.id', 'c.kind_id')
          .select(['c.user_id', 'u.name', 'k.name as kind_name', 'c.level', 'c.cert_no'])
          .where('c.id', '=', id)
          .executeTakeFirst();
        if (!c) throw notFound('资格证书不存在');
        await k.deleteFrom('tender_cert_reminders').where('cert_id', '=', id).execute();
        await k.deleteFrom('tender_certificates').where('id', '=', id).execute();
        const flags = await refreshFlags(k, [c.user_id]);
        await this.app.oplog.record(req, OperationLogType.delete, `删除资格证书：${c.name} ${c.kind_name}${c.level ? ` ${c.level}` : ''}（${c.cert_no}）${flags}`, k);
      });
    } catch (err) {
      if (isManagerIndexViolation(err)) throw conflict(MANAGER_RACE);
      throw err;
    }
    await deleteOwnerAttachments(this.app, 'certificate', [id]);
  }

  // ---- 证书种类 ----

  async saveKind(req: FastifyRequest, b: Parsed<typeof CertKindBody>): Promise<string> {
    const levels = [...new Set(b.levels)];
    if (levels.length !== b.levels.length) throw refuse('级别不能重复');
    try {
      return await this.db.transaction().execute(async (k) => {
        const dup = await k.selectFrom('tender_cert_kinds').select('id').where('name', '=', b.name).$if(!!b.id, (q) => q.where('id', '<>', b.id!)).executeTakeFirst();
        if (dup) throw conflict(`证书种类「${b.name}」已存在`);
        const now = nowIso();
        const values = { name: b.name, levels: JSON.stringify(levels), has_speciality: b.hasSpeciality ? 1 : 0, valid_years: b.validYears, renew_months: b.renewMonths, sort: b.sort, updated_by: this.who(req), updated_at: now };
        const what = `${b.name}（级别：${levels.length ? levels.join('、') : '不分级'}；有效年限：${b.validYears ? `${b.validYears}年` : '长期'}；延期办理期：${renewText(b.renewMonths)}）`;
        if (!b.id) {
          const id = newId();
          await k.insertInto('tender_cert_kinds').values({ id, created_at: now, ...values }).execute();
          await this.app.oplog.record(req, OperationLogType.add, `新增证书种类：${what}`, k);
          return id;
        }
        const before = await k.selectFrom('tender_cert_kinds').selectAll().where('id', '=', b.id).executeTakeFirst();
        if (!before) throw notFound('证书种类不存在');
        // A level in use stays: certificates would lose their level otherwise.
        const dropped = parseLevels(before.levels).filter((l) => !levels.includes(l));
        if (dropped.length) {
          const used = await k.selectFrom('tender_certificates').select('level').distinct().where('kind_id', '=', b.id).where('level', 'in', dropped).execute();
          if (used.length) throw refuse(`级别「${used.map((u) => u.level).join('、')}」已有证书使用，不能删除`);
        }
        await k.updateTable('tender_cert_kinds').set(values).where('id', '=', b.id).execute();
        const beforeText = `${before.name}（级别：${parseLevels(before.levels).join('、') || '不分级'}；有效年限：${before.valid_years ? `${before.valid_years}年` : '长期'}；延期办理期：${renewText(before.renew_months)}）`;
        await this.app.oplog.record(req, OperationLogType.edit, `修改证书种类：${beforeText} → ${what}`, k);
        return b.id;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`证书种类「${b.name}」已存在`);
      throw err;
    }
  }

  async deleteKind(req: FastifyRequest, id: string): Promise<void> {
    try {
      await this.db.transaction().execute(async (k) => {
        const kind = await k.selectFrom('tender_cert_kinds').select('name').where('id', '=', id).executeTakeFirst();
        if (!kind) throw notFound('证书种类不存在');
        const n = Number((await k.selectFrom('tender_certificates').select((eb) => eb.fn.countAll<number>().as('n')).where('kind_id', '=', id).executeTakeFirstOrThrow()).n);
        if (n) throw refuse(`证书种类「${kind.name}」已有 ${n} 本证书，不能删除`);
        await k.deleteFrom('tender_cert_kinds').where('id', '=', id).execute();
        await this.app.oplog.record(req, OperationLogType.delete, `删除证书种类：${kind.name}`, k);
      });
    } catch (err) {
      if (isForeignKeyViolation(err)) throw conflict('该证书种类刚登记了新证书，不能删除');
      throw err;
    }
  }

}

