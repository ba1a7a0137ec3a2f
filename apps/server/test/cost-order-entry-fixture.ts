/**
 * The set-up of the cost order entry tests (cost-order-entry.test.ts, cost-order-import.test.ts): the test's
 * own departments (a, b, closed), projects (p1 … p6 and the PMS simulator's failing one) and price list, put
 * into a cloned demo database, and the calls and reads the tests share.
 */
import ExcelJS from 'exceljs';
import { PMS_FAIL_TRIGGER } from '../src/integrations/pms/index.js';
import { newId } from '../src/platform/ids.js';
import '../src/modules/cost/tables.js';
import { startTestServer, type TestServer } from './helpers.js';

export const now = new Date().toISOString();
export const dept = { a: newId(), b: newId(), closed: newId() };
export const proj = { p1: newId(), p2: newId(), p3: newId(), p4: newId(), p5: newId(), p6: newId(), fail: newId() };
const DEPT_NAMES = { a: '成本测试一部', b: '成本测试二部', closed: '成本测试结账部' };
const PROJECTS: Array<[string, string, string]> = [
  [proj.p1, 'CT-001', '成本测试项目一'], [proj.p2, 'CT-002', '成本测试项目二'], [proj.p3, 'CT-003', '成本测试项目三'],
  [proj.p4, 'CT-004', '成本测试项目四'], [proj.p5, 'CT-005', '成本测试项目五'], [proj.p6, 'CT-006', '成本测试项目六'],
  [proj.fail, 'CT-FAIL', `成本${PMS_FAIL_TRIGGER}项目`],
];

/** The ids of the 人工 高级 windows (350.5 until June 2026, 380 from July), once the server is up. */
export const price0 = { rgOld: '', rgNew: '' };

/** The server of the entry tests: the entering and reading roles signed in (into `tok`), the fixtures above written. */
export async function startEntryServer(tok: Record<string, string>): Promise<TestServer> {
  const s = await startTestServer();
  const k = s.db.kysely;
  for (const login of ['admin', 'demo1', 'demo16', 'demo17', 'demo18', 'demo19', 'demo20']) tok[login] = await s.login(login);
  for (const [key, id] of Object.entries(dept)) await k.insertInto('departments').values({ id, parent_id: null, name: DEPT_NAMES[key as keyof typeof dept], sort: 90, manager_id: null, created_at: now, updated_at: now }).execute();
  await k.insertInto('projects').values(PROJECTS.map(([id, code, name]) => ({ id, code, name, customer: '', amount: 0, source: 0, is_temp: 0, created_at: now, updated_at: now }))).execute();
  async function price(itemCode: string, spec: string, unit: string, unitPrice: string, taxRate: string, validFrom: string, validTo: string | null, itemName = `测试${itemCode}`, category = 'labour') {
    const id = newId();
    await k.insertInto('cost_prices').values({ id, item_code: itemCode, item_name: itemName, category, spec, unit, unit_price: unitPrice, tax_rate: taxRate, valid_from: validFrom, valid_to: validTo, updated_by: '', created_at: now, updated_at: now }).execute();
    return id;
  }
  // 人工 高级: 350.5 until June 2026, 380 from July.
  price0.rgOld = await price('ZT-RG01', '高级', '工日', '350.5', '0.03', '2026-01-01', '2026-06-30', '测试人工');
  price0.rgNew = await price('ZT-RG01', '高级', '工日', '380', '0.03', '2026-07-01', null, '测试人工');
  await price('ZT-JX01', '', '台班', '1234.56789', '0.13', '2020-01-01', null, '测试机械', 'equipment');
  await price('ZT-FW01', '', '项', '0.005', '0.06', '2020-01-01', null, '测试服务', 'service');
  await price('ZT-FLT', '', '个', '1.005', '0.13', '2020-01-01', null, '测试材料', 'material');
  // Introduced mid-month: it prices the whole of March 2026.
  await price('ZT-CL01', 'Φ12', '吨', '0.33333333', '0.13', '2026-03-15', null, '测试钢筋', 'material');
  return s;
}

export const line = (itemCode: string, quantity: string, spec = '', unit = '工日', remark?: string) => ({ itemCode, spec, unit, quantity, ...(remark ? { remark } : {}) });
export const rg = (quantity: string) => line('ZT-RG01', quantity, '高级', '工日');
export const body = (month: string, deptId: string, projectId: string, lines = [rg('1')], extra: Record<string, unknown> = {}) => ({ month, deptId, projectId, lines, ...extra });

/** An import sheet with the given rows under the header. */
export async function xlsx(rows: unknown[][], header: string[] = ['月份', '部门', '项目编码', '成本项编码', '规格', '单位', '数量', '备注']): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('导入');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

/** The entry tests' calls and reads of one server (`server()` once its beforeAll has run). */
export function entryHelpers(server: () => TestServer, tok: Record<string, string>) {
  const k = () => server().db.kysely;
  return {
    k,
    save: (b: unknown, who = 'demo16') => server().call('/api/cost-order/save', b, tok[who]),
    orderOf: (id: string) => k().selectFrom('cost_orders').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    linesOf: (id: string) => k().selectFrom('cost_order_lines').selectAll().where('order_id', '=', id).orderBy('line_no').execute(),
    logsOf: (id: string) => k().selectFrom('cost_order_logs').selectAll().where('order_id', '=', id).orderBy('created_at').execute(),
  };
}
