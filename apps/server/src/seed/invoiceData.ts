/** Static demo data of the outgoing-invoice area: the seller, tax codes, buyers, projects and contracts. */
import { creditCodeCheckChar, InvoiceKind, TaxPolicy } from '@zhyy/shared';

/** A valid 统一社会信用代码 from its first 17 characters (GB 32100 check character appended). */
export const creditCode = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;

export const SELLER = {
  taxNo: creditCode('91320100MA1HJGC7X'),
  address: '南京市建邺区江东中路369号',
  phone: '025-86651870',
  bank: '中国建设银行南京建邺支行',
  account: '32050159613609002786',
};

export const TAX_CODES: Array<{ code: string; name: string; shortName: string; taxRate: string; policy: number }> = [
  { code: '3050200000000000000', name: '工程服务', shortName: '建筑服务', taxRate: '0.09', policy: TaxPolicy.none },
  { code: '3050100000000000000', name: '安装服务', shortName: '建筑服务', taxRate: '0.09', policy: TaxPolicy.none },
  { code: '3050300000000000000', name: '修缮服务', shortName: '建筑服务', taxRate: '0.09', policy: TaxPolicy.none },
  { code: '3050400000000000000', name: '装饰服务', shortName: '建筑服务', taxRate: '0.09', policy: TaxPolicy.none },
  { code: '3050500000000000000', name: '其他建筑服务（简易计税）', shortName: '建筑服务', taxRate: '0.03', policy: TaxPolicy.simplified },
  { code: '3040203000000000000', name: '工程监理服务', shortName: '现代服务', taxRate: '0.06', policy: TaxPolicy.none },
  { code: '3040205000000000000', name: '技术咨询服务', shortName: '现代服务', taxRate: '0.06', policy: TaxPolicy.none },
  { code: '3040204000000000000', name: '工程勘察勘探服务', shortName: '现代服务', taxRate: '0.06', policy: TaxPolicy.none },
  { code: '3040801000000000000', name: '有形动产经营租赁', shortName: '租赁服务', taxRate: '0.13', policy: TaxPolicy.none },
  { code: '1080204000000000000', name: '钢筋', shortName: '黑色金属冶炼压延品', taxRate: '0.13', policy: TaxPolicy.none },
  { code: '3040101000000000000', name: '技术转让服务（免税）', shortName: '现代服务', taxRate: '0', policy: TaxPolicy.exempt },
  { code: '6010000000000000000', name: '预付卡销售（不征税）', shortName: '未发生销售行为的不征税项目', taxRate: '0', policy: TaxPolicy.notTaxable },
];

export interface DemoBuyer {
  key: string;
  name: string;
  taxNo: string;
  address: string;
  phone: string;
  bank: string;
  account: string;
  email: string;
  kind: number;
}

/**
 * The demo buyers, written out like a real customer list: each with its own registered address, a
 * switchboard number with the area code of its city, its bank and a bank account of that bank's
 * length. None is named after the simulator's failure trigger (FORCED_FAILURE): the demo's failed
 * invoices are scripted by order number (seed/invoice.ts).
 */
const b = (key: string, name: string, first17: string, address: string, phone: string, bank: string, account: string, kind: number): DemoBuyer => ({
  key,
  name,
  taxNo: creditCode(first17),
  address,
  phone,
  bank,
  account,
  email: `finance@${key}.example.cn`,
  kind,
});

/** The first four are the buyers of the workflow's demo 开票申请 (same names, valid tax numbers). */
export const BUYERS: DemoBuyer[] = [
  b('cjlq', '江苏长江路桥建设有限公司', '91320100MA1XK3PQ2', '南京市鼓楼区中山北路283号', '025-83312468', '中国银行南京分行营业部', '470658213364', InvoiceKind.bs),
  b('njct', '南京市城市建设投资控股（集团）有限责任公司', '91320100249728262', '南京市玄武区中山路268号', '025-84785618', '中国工商银行南京新街口支行', '4301010109100238147', InvoiceKind.bs),
  b('szsz', '苏州工业园区市政工程管理有限公司', '91320594MA1MC8BH4', '苏州市苏州工业园区星海街198号', '0512-62586731', '交通银行苏州工业园区支行', '325605000018170093516', InvoiceKind.pc),
  b('wxxc', '无锡新城发展集团有限公司', '91320200MA1N3QJK7', '无锡市新吴区震泽路18号', '0510-85216690', '江苏银行无锡分行', '20110188000163527', InvoiceKind.bs),
  b('hnjc', '江苏华宁建材有限公司', '91320115MA1TY6RL3', '南京市江宁区天元中路126号', '025-52108836', '南京银行江宁支行', '0185270000213047', InvoiceKind.s),
  b('hxzl', '南京恒信机械租赁有限公司', '91320113MA1P9W2Q0', '南京市栖霞区仙林大道163号', '025-85790412', '招商银行南京分行', '125904315710901', InvoiceKind.c),
  b('tjzx', '上海同济工程咨询有限公司', '91310110132208471', '上海市杨浦区四平路1398号', '021-65983726', '上海浦东发展银行杨浦支行', '98420154740022137', InvoiceKind.pc),
  b('dssz', '南京鼎盛市政工程有限公司', '91320104MA1W8D5K2', '南京市秦淮区龙蟠中路218号', '025-84562319', '中国农业银行南京秦淮支行', '10106101040018726', InvoiceKind.bs),
  b('wjjt', '常州武进交通建设有限公司', '91320412MA1P4RT6X', '常州市武进区延政中路9号', '0519-86315072', '中国农业银行常州武进支行', '10605101040036218', InvoiceKind.bs),
];

export const PROJECTS: Array<{ key: string; code: string; name: string; customer: string; amount: number; source: number; temp?: boolean }> = [
  { key: 'jbgl', code: 'XM2026-001', name: '江北新区综合管廊二期', customer: '南京市城市建设投资控股（集团）有限责任公司', amount: 86_000_000_00, source: 2 },
  { key: 'lsdl', code: 'XM2026-002', name: '溧水经济开发区道路改造', customer: '江苏长江路桥建设有限公司', amount: 32_500_000_00, source: 2 },
  { key: 'szhb', code: 'XM2026-003', name: '苏州河滨公园景观提升', customer: '苏州工业园区市政工程管理有限公司', amount: 12_800_000_00, source: 2 },
  { key: 'wxdt', code: 'XM2026-004', name: '无锡地铁5号线配套工程', customer: '无锡新城发展集团有限公司', amount: 45_600_000_00, source: 3 },
  { key: 'njnz', code: 'XM2026-005', name: '南京南站片区雨污分流', customer: '南京市城市建设投资控股（集团）有限责任公司', amount: 21_000_000_00, source: 2 },
  { key: 'temp1', code: 'LS2026-001', name: '临时项目-江宁区零星维修', customer: '江苏华宁建材有限公司', amount: 0, source: 0, temp: true },
];

export const CONTRACTS: Array<{ code: string; name: string; project: string; customer: string; type: number; amount: number; source: number }> = [
  { code: 'HJ-HT-2026-011', name: '江北新区综合管廊二期施工总承包合同', project: 'jbgl', customer: '南京市城市建设投资控股（集团）有限责任公司', type: 2, amount: 86_000_000_00, source: 2 },
  { code: 'HJ-HT-2026-014', name: '溧水经济开发区道路改造施工合同', project: 'lsdl', customer: '江苏长江路桥建设有限公司', type: 2, amount: 32_500_000_00, source: 2 },
  { code: 'HJ-HT-2026-018', name: '苏州河滨公园景观提升工程合同', project: 'szhb', customer: '苏州工业园区市政工程管理有限公司', type: 2, amount: 12_800_000_00, source: 2 },
  { code: 'HJ-KJ-2026-002', name: '无锡地铁5号线配套工程框架协议', project: 'wxdt', customer: '无锡新城发展集团有限公司', type: 1, amount: 45_600_000_00, source: 3 },
  { code: 'HJ-DD-2026-031', name: '无锡地铁5号线配套工程订单（一期）', project: 'wxdt', customer: '无锡新城发展集团有限公司', type: 3, amount: 9_800_000_00, source: 3 },
  { code: 'HJ-HT-2026-022', name: '南京南站片区雨污分流工程合同', project: 'njnz', customer: '南京市城市建设投资控股（集团）有限责任公司', type: 2, amount: 21_000_000_00, source: 2 },
  { code: 'HJ-JL-2026-005', name: '江北新区综合管廊二期监理咨询合同', project: 'jbgl', customer: '南京市城市建设投资控股（集团）有限责任公司', type: 2, amount: 3_600_000_00, source: 2 },
];
