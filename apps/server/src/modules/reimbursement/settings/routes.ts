/** /api/reimbursement/setting/*: 报销设置 (/reimbursement/cost-setting, roles 1 and 12). HTTP only; the rules are in service.ts. */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ReimbAccountingBody, ReimbCategoryBody, ReimbCategoryCodeBody, ReimbCategoryEnableBody, ReimbCityBody, ReimbCityDeleteBody, ReimbCostCentreBody, ReimbDeptBody,
  ReimbGradeBody, ReimbGradeListQuery, ReimbInvoiceAgeBody, ReimbStandardsBody,
} from '@zhyy/shared';
import { ok } from '../../../platform/envelope.js';
import { typed } from '../../../platform/route.js';
import { access, tags } from '../paths.js';
import { ReimbSettingService } from './service.js';

export async function settingRoutes(app: FastifyInstance): Promise<void> {
  const s = new ReimbSettingService(app);
  const r = typed(app);
  const cfg = access.setting;
  const P = '/api/reimbursement/setting';

  r.post(`${P}/get`, { schema: { body: z.object({}), summary: '报销设置：费用类别、成本中心、差旅标准、城市分类、发票期限、会计系统接口（密钥只返回是否已设置）', tags }, config: cfg }, async () => ok(await s.view()));

  r.post(`${P}/category/add`, { schema: { body: ReimbCategoryBody, summary: '新增费用类别（编码、名称不能重复）', tags }, config: cfg }, async (req) => {
    await s.addCategory(req, req.body);
    return ok(await s.view(), '已新增');
  });
  r.post(`${P}/category/edit`, { schema: { body: ReimbCategoryBody, summary: '修改费用类别（按编码；名称不能与其他类别重复）', tags }, config: cfg }, async (req) => {
    await s.editCategory(req, req.body);
    return ok(await s.view(), '保存成功');
  });
  r.post(`${P}/category/enable`, { schema: { body: ReimbCategoryEnableBody, summary: '启用或停用费用类别（停用后不能再选用，已有报销单不受影响）', tags }, config: cfg }, async (req) => {
    await s.enableCategory(req, req.body.code, req.body.enabled);
    return ok(await s.view(), req.body.enabled ? '已启用' : '已停用');
  });
  r.post(`${P}/category/delete`, { schema: { body: ReimbCategoryCodeBody, summary: '删除费用类别（已被报销单使用的只能停用）', tags }, config: cfg }, async (req) => {
    await s.deleteCategory(req, req.body.code);
    return ok(await s.view(), '已删除');
  });

  r.post(`${P}/cost-centre/save`, { schema: { body: ReimbCostCentreBody, summary: '设置部门的成本中心（编码不能与其他部门重复）', tags }, config: cfg }, async (req) => {
    await s.saveCostCentre(req, req.body.deptId, req.body.centreCode, req.body.centreName);
    return ok(await s.view(), '保存成功');
  });
  r.post(`${P}/cost-centre/delete`, { schema: { body: ReimbDeptBody, summary: '取消部门的成本中心', tags }, config: cfg }, async (req) => {
    await s.deleteCostCentre(req, req.body.deptId);
    return ok(await s.view(), '已取消');
  });

  r.post(`${P}/standard/save`, { schema: { body: ReimbStandardsBody, summary: '保存差旅标准（职级 × 城市分类：住宿每晚、可乘坐席别、每日补助）', tags }, config: cfg }, async (req) => {
    await s.saveStandards(req, req.body);
    return ok(await s.view(), '保存成功');
  });

  r.post(`${P}/city/add`, { schema: { body: ReimbCityBody, summary: '新增一类或二类城市（未列出的城市为其他城市）', tags }, config: cfg }, async (req) => {
    await s.addCity(req, req.body.city, req.body.tier);
    return ok(await s.view(), '已新增');
  });
  r.post(`${P}/city/delete`, { schema: { body: ReimbCityDeleteBody, summary: '移除城市分类（该城市按其他城市）', tags }, config: cfg }, async (req) => {
    await s.removeCity(req, req.body.city);
    return ok(await s.view(), '已移除');
  });

  r.post(`${P}/grade/list`, { schema: { body: ReimbGradeListQuery, summary: '人员职级（未设置的按默认规则：部门负责人，其余员工）', tags }, config: cfg }, async (req) => ok(await s.grades(req.body)));
  r.post(`${P}/grade/save`, { schema: { body: ReimbGradeBody, summary: '设置人员职级（空为按默认规则）', tags }, config: cfg }, async (req) => {
    await s.saveGrade(req, req.body.userId, req.body.grade);
    return ok(undefined, '保存成功');
  });

  r.post(`${P}/invoice-age/save`, { schema: { body: ReimbInvoiceAgeBody, summary: '保存发票期限（开票日期至报销超过该天数提示发票超期）', tags }, config: cfg }, async (req) => {
    await s.saveInvoiceAge(req, req.body.invoiceAgeDays);
    return ok(await s.view(), '保存成功');
  });

  r.post(`${P}/accounting/save`, { schema: { body: ReimbAccountingBody, summary: '保存会计系统接口（模拟器或 i8 接口地址与密钥；密钥留空则保留原值）', tags }, config: cfg }, async (req) => {
    await s.saveAccounting(req, req.body);
    return ok(await s.view(), '保存成功');
  });
  r.post(`${P}/accounting/test`, { schema: { body: z.object({}), summary: '测试会计系统连接（按已保存的配置）', tags }, config: cfg }, async (req) => {
    const t = await s.testAccounting(req);
    return ok(t, t.message);
  });
}
