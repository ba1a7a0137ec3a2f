/**
 * /api/tender/personnel/*, /api/tender/title/*, /api/tender/certificate/*: people and certificates
 * (the personnel-certificate pages, roles 1, 6, 15: access.people); /api/tender/cert-kind/*: the
 * certificate kinds of 投标设置 (reads access.settingRead, writes access.setting). HTTP only: reading
 * in queries.ts, writing in service.ts, the reminders in reminders.ts.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  CERT_STATE_LABEL, CertificateAlertQuery, CertificateBody, CertificateExportQuery, CertificateQuery, CertKindBody, Education, Gender,
  PersonnelBody, PersonnelExportQuery, PersonnelOptionsQuery, PersonnelQuery, PersonnelUserBody, PeopleIdBody, TitleBody, TitleExportQuery,
  TitleLevel, TitleQuery, type CertificateRow, type PersonnelRow, type TitleRow,
} from '@zhyy/shared';
import { notFound, ok, refuse } from '../../../platform/envelope.js';
import { shanghaiTime } from '../../../platform/listing.js';
import { typed } from '../../../platform/route.js';
import type { XlsxColumn } from '../../../platform/xlsx.js';
import { exportXlsx } from '../../syslog/fileExports.js';
import { access, tags } from '../paths.js';
import {
  certAlerts, certBatches, certById, certCard, certCount, certKinds, certPage, certsOfUser, certSummary, personnelBatches, personnelCount,
  personnelFacts, personnelOptions, personnelPage, titleBatches, titleById, titleCount, titlePage, titlesOfUser,
} from './queries.js';
import { registerPeopleAttachments } from './attachments.js';
import { CertReminderJob } from './reminders.js';
import { PeopleService } from './service.js';

export const PEOPLE_EXPORT_MAX_ROWS = 100_000;

const PERSONNEL_COLUMNS: XlsxColumn<PersonnelRow>[] = [
  { header: '姓名', width: 10, value: (r) => r.name },
  { header: '登录名', width: 12, value: (r) => r.loginName },
  { header: '部门', width: 16, value: (r) => r.deptName },
  { header: '职务', width: 12, value: (r) => r.position },
  { header: '身份证号', width: 22, value: (r) => r.idCard },
  { header: '性别', width: 6, value: (r) => Gender.label(r.gender) },
  { header: '出生日期', width: 12, value: (r) => r.birthDate ?? '' },
  { header: '学历', width: 12, value: (r) => Education.label(r.education) },
  { header: '毕业院校', width: 18, value: (r) => r.school },
  { header: '专业', width: 14, value: (r) => r.major },
  { header: '最高职称', width: 10, value: (r) => (r.titleLevel ? TitleLevel.label(r.titleLevel) : '') },
  { header: '职称数', width: 8, value: (r) => r.titleCount },
  { header: '证书数', width: 8, value: (r) => r.certCount },
  { header: '已过期', width: 8, value: (r) => r.expiredCount },
  { header: '即将到期', width: 10, value: (r) => r.expiringCount },
];

const TITLE_COLUMNS: XlsxColumn<TitleRow>[] = [
  { header: '姓名', width: 10, value: (r) => r.holderName },
  { header: '部门', width: 16, value: (r) => r.deptName },
  { header: '职称级别', width: 10, value: (r) => TitleLevel.label(r.level) },
  { header: '职称名称', width: 18, value: (r) => r.titleName },
  { header: '专业', width: 14, value: (r) => r.speciality },
  { header: '证书编号', width: 20, value: (r) => r.certNo },
  { header: '发证机关', width: 22, value: (r) => r.issuer },
  { header: '发证日期', width: 12, value: (r) => r.issueDate },
  { header: '备注', width: 20, value: (r) => r.remark },
  { header: '更新人', width: 10, value: (r) => r.updatedBy },
  { header: '更新时间', width: 20, value: (r) => shanghaiTime(r.updatedAt) },
];

const CERT_COLUMNS: XlsxColumn<CertificateRow>[] = [
  { header: '持证人', width: 10, value: (r) => r.holderName },
  { header: '部门', width: 16, value: (r) => r.deptName },
  { header: '证书种类', width: 20, value: (r) => r.kindName },
  { header: '级别', width: 8, value: (r) => r.level },
  { header: '专业', width: 14, value: (r) => r.speciality },
  { header: '证书编号', width: 22, value: (r) => r.certNo },
  { header: '发证机关', width: 22, value: (r) => r.issuer },
  { header: '有效期起', width: 12, value: (r) => r.validFrom },
  { header: '有效期至', width: 12, value: (r) => r.validTo ?? '长期' },
  { header: '状态', width: 10, value: (r) => CERT_STATE_LABEL[r.state] },
  { header: '剩余天数', width: 10, value: (r) => r.daysLeft ?? '' },
  { header: '可办理延期起', width: 14, value: (r) => (r.renewFrom ? `${r.renewFrom}${r.renewable ? '（可办理）' : ''}` : '') },
  { header: '注册单位', width: 24, value: (r) => r.company },
  { header: '备注', width: 20, value: (r) => r.remark },
  { header: '更新人', width: 10, value: (r) => r.updatedBy },
  { header: '更新时间', width: 20, value: (r) => shanghaiTime(r.updatedAt) },
];

export async function peopleRoutes(app: FastifyInstance): Promise<void> {
  registerPeopleAttachments();
  const s = new PeopleService(app);
  const r = typed(app);
  const db = () => app.db.kysely;
  const job = new CertReminderJob({ db: app.db, log: app.log });
  app.decorate('tenderCertReminders', job);
  // At start (one round now) and then every interval; another server holding the lease makes a round a no-op.
  app.addHook('onReady', async () => {
    job.start();
    void job.tick();
  });
  app.addHook('onClose', async () => job.stop());

  const people = access.people;
  const tooMany = (n: number) => {
    if (n > PEOPLE_EXPORT_MAX_ROWS) throw refuse(`筛选结果 ${n} 条，超过导出上限 ${PEOPLE_EXPORT_MAX_ROWS} 条，请缩小筛选范围`);
  };

  // ---- 人员信息 ----
  const PP = '/api/tender/personnel';
  r.post(`${PP}/list`, { schema: { body: PersonnelQuery, summary: '人员信息：系统用户及其学历、职称与证书数（部门、姓名、学历、持有某种证书），分页；身份证号打码', tags }, config: people }, async (req) =>
    ok(await personnelPage(db(), req.body)),
  );
  r.post(`${PP}/export`, { schema: { body: PersonnelExportQuery, summary: '导出人员信息（筛选结果全部，流式Excel；身份证号打码）', tags }, config: people }, async (req, reply) => {
    const n = await personnelCount(db(), req.body);
    tooMany(n);
    return exportXlsx(app, req, reply, { fileName: '人员信息', sheetName: '人员信息', category: '人员信息', rowCount: n, description: `导出人员信息 ${n} 条`, columns: PERSONNEL_COLUMNS, rows: personnelBatches(db(), req.body) });
  });
  r.post(`${PP}/detail`, { schema: { body: PersonnelUserBody, summary: '人员详情：基本信息（身份证号完整）、职称、资格证书及其今日状态', tags }, config: people }, async (req) => {
    const facts = await personnelFacts(db(), req.body.userId);
    if (!facts) throw notFound('人员不存在');
    const [titles, certificates] = await Promise.all([titlesOfUser(db(), req.body.userId), certsOfUser(db(), req.body.userId)]);
    return ok({ facts, titles, certificates });
  });
  r.post(`${PP}/save`, { schema: { body: PersonnelBody, summary: '保存人员信息（身份证号校验位、学历、毕业院校、专业、日期、备注）', tags }, config: people }, async (req) => {
    await s.savePersonnel(req, req.body);
    return ok(await personnelFacts(db(), req.body.userId), '保存成功');
  });
  r.post(`${PP}/options`, { schema: { body: PersonnelOptionsQuery, summary: '持证人选择：在职人员（姓名或登录名），最多50人', tags }, config: people }, async (req) =>
    ok(await personnelOptions(db(), req.body.keyword)),
  );

  // ---- 职称 ----
  const TP = '/api/tender/title';
  r.post(`${TP}/list`, { schema: { body: TitleQuery, summary: '职称：初级、中级、高级、正高级职称证书（姓名或编号、级别、专业、部门），分页', tags }, config: people }, async (req) => ok(await titlePage(db(), req.body)));
  r.post(`${TP}/export`, { schema: { body: TitleExportQuery, summary: '导出职称（筛选结果全部，流式Excel）', tags }, config: people }, async (req, reply) => {
    const n = await titleCount(db(), req.body);
    tooMany(n);
    return exportXlsx(app, req, reply, { fileName: '职称证书', sheetName: '职称', category: '职称证书', rowCount: n, description: `导出职称证书 ${n} 条`, columns: TITLE_COLUMNS, rows: titleBatches(db(), req.body) });
  });
  r.post(`${TP}/detail`, { schema: { body: PeopleIdBody, summary: '职称详情', tags }, config: people }, async (req) => {
    const t = await titleById(db(), req.body.id);
    if (!t) throw notFound('职称不存在');
    return ok(t);
  });
  r.post(`${TP}/save`, { schema: { body: TitleBody, summary: '新增或修改职称（证书编号不能重复）', tags }, config: people }, async (req) => {
    const id = await s.saveTitle(req, req.body);
    return ok(await titleById(db(), id), req.body.id ? '保存成功' : '已新增');
  });
  r.post(`${TP}/delete`, { schema: { body: PeopleIdBody, summary: '删除职称', tags }, config: people }, async (req) => {
    await s.deleteTitle(req, req.body.id);
    return ok(null, '已删除');
  });

  // ---- 资格证书 ----
  const CP = '/api/tender/certificate';
  r.post(`${CP}/list`, { schema: { body: CertificateQuery, summary: '资格证书：种类、级别、今日状态（已过期、90天内到期、有效、长期、可办理延期）、持证人、N天内到期，分页', tags }, config: people }, async (req) => ok(await certPage(db(), req.body)));
  r.post(`${CP}/export`, { schema: { body: CertificateExportQuery, summary: '导出资格证书（筛选结果全部，流式Excel，含状态与剩余天数）', tags }, config: people }, async (req, reply) => {
    const n = await certCount(db(), req.body);
    tooMany(n);
    return exportXlsx(app, req, reply, { fileName: '资格证书', sheetName: '资格证书', category: '资格证书', rowCount: n, description: `导出资格证书 ${n} 条`, columns: CERT_COLUMNS, rows: certBatches(db(), req.body) });
  });
  r.post(`${CP}/detail`, { schema: { body: PeopleIdBody, summary: '资格证书详情（含今日状态与剩余天数）', tags }, config: people }, async (req) => {
    const c = await certById(db(), req.body.id);
    if (!c) throw notFound('资格证书不存在');
    return ok(c);
  });
  r.post(`${CP}/save`, { schema: { body: CertificateBody, summary: '新增或修改资格证书（同一种类证书编号不能重复；有效期至为空时按种类默认年限计算，长期有效则不设；持证人所负责项目的注册建造师标记随之更新）', tags }, config: people }, async (req) => {
    const id = await s.saveCertificate(req, req.body);
    return ok(await certById(db(), id), req.body.id ? '保存成功' : '已新增');
  });
  r.post(`${CP}/delete`, { schema: { body: PeopleIdBody, summary: '删除资格证书', tags }, config: people }, async (req) => {
    await s.deleteCertificate(req, req.body.id);
    return ok(null, '已删除');
  });
  r.post(`${CP}/summary`, { schema: { body: z.object({}), summary: '证书汇总：按种类、级别的证书数，有效、90天内到期、已过期数，可办理延期数；职称按级别计数', tags }, config: people }, async () => ok(await certSummary(db())));
  r.post(`${CP}/alerts`, { schema: { body: CertificateAlertQuery, summary: '已过期或90天内到期的证书，到期日最早的在前，含持证人与剩余天数，分页', tags }, config: people }, async (req) => ok(await certAlerts(db(), req.body)));
  r.post(`${CP}/card`, { schema: { body: z.object({}), summary: '工作台证书卡片：已过期与90天内到期的证书数', tags }, config: people }, async () => ok(await certCard(db())));

  // ---- 证书种类（投标设置） ----
  const KP = '/api/tender/cert-kind';
  r.post(`${KP}/list`, { schema: { body: z.object({}), summary: '证书种类：名称、级别、是否区分专业、默认有效年限、延期办理期、证书数', tags }, config: access.settingRead }, async () => ok(await certKinds(db())));
  r.post(`${KP}/save`, { schema: { body: CertKindBody, summary: '新增或修改证书种类（名称不能重复；已有证书使用的级别不能删除；延期办理期1至24个月或不设）', tags }, config: access.setting }, async (req) => {
    await s.saveKind(req, req.body);
    return ok(await certKinds(db()), req.body.id ? '保存成功' : '已新增');
  });
  r.post(`${KP}/delete`, { schema: { body: PeopleIdBody, summary: '删除证书种类（已有证书的不能删除）', tags }, config: access.setting }, async (req) => {
    await s.deleteKind(req, req.body.id);
    return ok(await certKinds(db()), '已删除');
  });
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The certificate expiry reminders (people/reminders.ts). */
    tenderCertReminders: CertReminderJob;
  }
}
