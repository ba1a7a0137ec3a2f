/** Realistic form values for the demo instances of each template (seeded, so identical everywhere). */
import type { DemoUser } from './company.js';
import type { Rng } from './rng.js';
import { endOfWorkdays, nextWorkday } from '@zhyy/shared';
import { creditCode } from './invoiceData.js';

const day = (d: Date, plusDays = 0) => new Date(d.getTime() + 8 * 3600_000 + plusDays * 86400_000).toISOString().slice(0, 10);

/** The demo buyers of the invoice area (same names, valid GB 32100 tax numbers). */
const BUYERS: Array<[string, string]> = [
  ['江苏长江路桥建设有限公司', creditCode('91320100MA1XK3PQ2')],
  ['南京市城市建设投资控股（集团）有限责任公司', creditCode('91320100249728262')],
  ['苏州工业园区市政工程管理有限公司', creditCode('91320594MA1MC8BH4')],
  ['无锡新城发展集团有限公司', creditCode('91320200MA1N3QJK7')],
];
const PROJECTS = ['江北新区综合管廊二期', '溧水经济开发区道路改造', '苏州河滨公园景观提升', '无锡地铁5号线配套工程', '南京南站片区雨污分流'];
const PARTIES = ['江苏华宁建材有限公司', '南京恒信机械租赁有限公司', '上海同济工程咨询有限公司', '安徽皖通劳务有限公司'];

export function demoForm(flowNo: string, starter: DemoUser, rng: Rng, at: Date): { title: string; form: Record<string, unknown> } {
  switch (flowNo) {
    case 'QJ01': {
      const days = rng.pick([0.5, 1, 1, 2, 3, 5]);
      // 请假天数 agree with 请假时间 by the work calendar: the leave starts on a working day.
      const from = nextWorkday(day(at, rng.int(1, 10)));
      const to = endOfWorkdays(from, days);
      const leaveType = rng.pick(['年假', '事假', '病假', '调休']);
      return {
        title: `${starter.name}的${leaveType}申请（${days}天）`,
        form: { leaveType, days, period: [from, to], reason: rng.pick(['家中有事需要处理', '身体不适，需就医休息', '回老家探亲', '处理个人事务']) },
      };
    }
    case 'YY01': {
      const sealType = rng.pick(['公章', '合同专用章', '合同专用章', '法人章']);
      const document = rng.pick(['投标文件（江北新区综合管廊二期）', '工程款支付申请', '施工合同补充协议', '授权委托书']);
      return {
        title: `用印申请：${document}`,
        form: { sealType, copies: rng.int(1, 6), document, receiver: rng.pick(PARTIES), useDate: day(at, 1), purpose: '项目投标及合同签订需要', files: [] },
      };
    }
    case 'HT01': {
      const amount = rng.pick([18, 36, 55, 120, 260]) * 10000 * 100;
      const partyB = rng.pick(PARTIES);
      const project = rng.pick(PROJECTS);
      return {
        title: `合同审批：${project}${rng.pick(['材料采购合同', '设备租赁合同', '劳务分包合同'])}`,
        form: {
          contractName: `${project}${rng.pick(['材料采购合同', '设备租赁合同', '劳务分包合同'])}`,
          contractNo: `HJ-HT-${day(at).slice(0, 4)}-${String(rng.int(1, 999)).padStart(3, '0')}`,
          contractType: rng.pick(['单项合同', '订单合同', '框架合同']),
          partyB,
          project,
          amount,
          period: [day(at, 5), day(at, 365)],
          summary: '按月计量、按进度付款，质保金5%，质保期一年。',
          files: [],
        },
      };
    }
    case 'KP01': {
      const [buyer, buyerTaxNo] = rng.pick(BUYERS);
      const lines = Array.from({ length: rng.int(1, 3) }, (_, i) => ({
        goods: rng.pick(['*建筑服务*工程施工', '*建筑服务*工程监理', '*现代服务*技术咨询']),
        spec: '',
        unit: '项',
        quantity: 1,
        taxRate: i === 0 ? '9%' : rng.pick(['9%', '6%']),
        amount: rng.int(5, 150) * 10000 * 100,
      }));
      const amount = lines.reduce((s, l) => s + l.amount, 0);
      const project = rng.pick(PROJECTS);
      return {
        title: `开票申请：${buyer}（${project}）`,
        form: { buyer, buyerTaxNo, invoiceKind: rng.pick(['数电专票', '数电普票']), basis: '项目', reference: project, lines, amount, remark: `项目名称：${project}` },
      };
    }
    case 'FY01': {
      const lines = Array.from({ length: rng.int(1, 4) }, () => ({
        category: rng.pick(['差旅费', '交通费', '餐费', '办公用品', '通讯费']),
        date: day(at, -rng.int(1, 20)),
        description: rng.pick(['项目现场往返', '客户拜访', '办公耗材采购', '出差住宿']),
        amount: rng.int(80, 3200) * 100,
      }));
      const amount = lines.reduce((s, l) => s + l.amount, 0);
      return {
        title: `${starter.name}的费用报销（${(amount / 100).toFixed(2)}元）`,
        form: {
          reason: rng.pick(['项目现场出差费用', '11月日常办公费用', '客户拜访交通及餐费']),
          period: [day(at, -20), day(at)],
          project: rng.pick(['', ...PROJECTS]),
          payee: starter.name,
          bankAccount: `6222${String(rng.int(0, 999999999)).padStart(9, '0')}${String(rng.int(0, 999999)).padStart(6, '0')}`,
          lines,
          amount,
          files: [],
        },
      };
    }
    default: {
      const subject = rng.pick(['办公室工位调整', '部门团建活动经费', '项目部临时用车', '购买专业书籍资料']);
      return {
        title: `通用审批：${subject}`,
        form: { subject, content: `${subject}，具体安排见说明。`, amount: rng.int(0, 50) * 100 * 100, files: [] },
      };
    }
  }
}
