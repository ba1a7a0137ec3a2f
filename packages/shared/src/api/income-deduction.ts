/**
 * Incoming invoices, part 2 (issue 14): ticking (勾选) for deduction and for tax rebate. The current
 * period from the tax service, the candidates (the pool's filters plus the tick facts), tick and undo
 * as all-or-nothing batches, import from Excel, the tick log and the setting 先入账后勾选.
 * Money in 分.
 */
import { z } from '../zod-locale.js';
import { defineEnum } from '../enum.js';
import { PageQuery, Uuid, isoDay, text } from './common.js';
import { checkRanges, incomeOneOf, isDigitalTicket, PoolFilterShape, type PoolRow, type PoolTotals } from './income.js';
import { optText } from './system.js';

/** 增值税用途: exclusive per invoice. */
export const TickUsage = defineEnum({ deduct: [1, '抵扣'], exportRebate: [2, '出口退税'], agentRebate: [3, '代办退税'], nonDeduct: [4, '不抵扣'] });
export const NonDeductReason = defineEnum({ nonTaxable: [1, '非应税项目'], exempt: [2, '免税项目'], welfare: [3, '集体福利或个人消费'], abnormalLoss: [4, '非正常损失'], other: [5, '其他'] });
export const TickState = defineEnum({ unticked: [0, '未勾选'], ticked: [1, '已勾选'] });
/** The period's statistics (统计状态). */
export const PeriodStatState = defineEnum({ none: [0, '未统计'], applied: [1, '已申请'], confirmed: [2, '已确认'] });
/** adopt (issue 32 item 1): the ledger took the bureau's state of the invoice (统计对比, 采纳税务端). */
export const TickAction = defineEnum({ tick: ['tick', '勾选'], untick: ['untick', '撤销勾选'], adopt: ['adopt', '采纳税务端'] });
/** 2 无变化: the invoice was already ticked exactly so (same usage, period, effective tax, reason); nothing was sent or written. */
export const TickResult = defineEnum({ failed: [0, '失败'], success: [1, '成功'], unchanged: [2, '无变化'] });

/**
 * Kinds that may be ticked (扣税凭证, 公告2019年第45号 第一条): 增值税专用发票 (paper, electronic), 数电专票 and
 * 数电纸质专票, 收费公路通行费增值税电子普通发票 (14) and the 数电 toll invoice, and 海关进口增值税专用缴款书
 * (customs, through its own call at the tax service). Besides these, the 数电 rail and air tickets
 * (isDigitalTicket: 公告2024年第8号, 第9号) — kind rail / air with a 20-digit number, not the paper ones.
 */
export const TICKABLE_INCOME_KINDS = ['01', '08', '81', '85', '14', 'dtoll', 'customs'] as const;
/** The refusal of a kind that cannot be ticked. */
export const NOT_TICKABLE_MESSAGE = '该发票种类不能勾选（仅增值税专用发票、数电专票、通行费发票、数电铁路电子客票和航空行程单、海关缴款书）';
/** Whether a pool invoice of `kind` (with its 数电 number) may be ticked at all. */
export const isTickableKind = (kind: string, digitalNo: string | null | undefined): boolean =>
  (TICKABLE_INCOME_KINDS as readonly string[]).includes(kind) || isDigitalTicket(kind, digitalNo);
/** The usages of each ticking page: 抵扣勾选 (deduction, non-deduction) and 退税勾选. */
export const DEDUCTION_USAGES = [1, 4] as const;
export const REBATE_USAGES = [2, 3] as const;
/** One tick or undo request names at most this many invoices (a filter selecting more is refused). */
export const TICK_MAX_INVOICES = 1000;
/** The question a batch with a 疑点 or abnormal invoice is answered with until it comes back with confirmed: true. */
export const TICK_CONFIRM_MESSAGE = '您勾选的发票中含有疑点发票';

const TickFilterShape = {
  ...PoolFilterShape,
  tickState: incomeOneOf(TickState.values, '勾选状态不正确').optional(),
  vatUsage: incomeOneOf(TickUsage.values, '增值税用途不正确').optional(),
  tickPeriod: optText(6),
};
export const CandidateQuery = PageQuery.extend(TickFilterShape).superRefine(checkRanges);
export type CandidateQuery = z.infer<typeof CandidateQuery>;
export const CandidateFilter = PageQuery.pick({ sort: true }).extend(TickFilterShape).superRefine(checkRanges);
export type CandidateFilter = z.infer<typeof CandidateFilter>;

export interface CandidateRow extends PoolRow {
  vatUsage: number;
  tickState: number;
  effectiveTax: number | null;
  deductReason: number | null;
  tickPeriod: string;
  tickedAt: string | null;
  tickedBy: string;
  /** 疑点 or abnormal: ticking asks for confirmation. */
  needsConfirm: boolean;
  /**
   * The tax that can be ticked: the printed 税额 net of the red invoices received that reverse this one (issue
   * 29; equal to `tax` when none). The default and the ceiling of the effective tax.
   */
  netTax: number;
}

export interface CandidatePage {
  items: CandidateRow[];
  total: number;
  totals: PoolTotals & { effectiveTax: number };
}

export interface TickPeriodInfo {
  /** 'YYYYMM' */
  period: string;
  /** ISO UTC, for the countdown; deadlineText as the bureau prints it (Asia/Shanghai). */
  deadline: string;
  deadlineText: string;
  /** The tax service's time when it answered (ISO UTC): the countdown runs on it, not on the browser's clock. */
  serviceNow: string;
  windowFrom: string;
  windowTo: string;
  statState: number;
  /** Ticking accepted now; else closedReason says why. */
  open: boolean;
  closedReason: string;
  /**
   * Ticked in the period for what this page counts: 抵扣勾选 the 抵扣 ticks only (usage 1, the same figures as
   * 抵扣统计), 退税勾选 the 出口退税 and 代办退税 ticks (the same as 退税统计). One query (tickedFigures).
   */
  ticked: { count: number; tax: number; effectiveTax: number };
  /** The period's other ticks, shown apart and never added to `ticked` (抵扣勾选: 不抵扣, 退税). */
  apart: TickedApart[];
  /** Every candidate of the page (ticked or not). */
  candidates: { count: number; tax: number };
  tickBookedOnly: boolean;
}

/** Ticks of the period shown apart from a page's own figures: 不抵扣 on 抵扣勾选, for instance. */
export interface TickedApart {
  usages: number[];
  label: string;
  count: number;
  tax: number;
}

/**
 * The rule of an effective tax (有效税额, 分) for a 抵扣 tick: a positive amount of at most the invoice's
 * tax, to the 分. '' when it holds, else the Chinese reason (the server's check, the import's rows and the
 * page's field say the same words).
 */
export function effectiveTaxProblem(eff: number, tax: number): string {
  if (!Number.isFinite(eff)) return '有效税额须为金额';
  if (!Number.isInteger(eff)) return '有效税额须精确到分（最多两位小数）';
  if (eff <= 0 || eff > tax) return `有效税额须大于0且不超过发票税额（${(tax / 100).toFixed(2)}元）`;
  return '';
}

const Fen = z.number({ message: '有效税额须为数字' }).int('有效税额须精确到分').positive('有效税额须大于0').max(1e13, '有效税额超出范围');

/** Ticks either the listed invoices or every candidate of the filter (select all on the filtered set). */
export const TickBody = z
  .object({
    items: z.array(z.object({ id: Uuid, effectiveTax: Fen.optional() }), { message: '请选择发票' }).max(TICK_MAX_INVOICES, `一次最多勾选${TICK_MAX_INVOICES}张发票`).optional(),
    filter: CandidateFilter.optional(),
    vatUsage: incomeOneOf(TickUsage.values, '增值税用途不正确'),
    deductReason: incomeOneOf(NonDeductReason.values, '不抵扣原因不正确').optional(),
    confirmed: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    if (!b.items === !b.filter) ctx.addIssue({ code: 'custom', message: '请选择发票，或按筛选结果全选', path: ['items'] });
    if (b.items && !b.items.length) ctx.addIssue({ code: 'custom', message: '请至少选择一张发票', path: ['items'] });
    if (Number(b.vatUsage) === 4 && b.deductReason === undefined) ctx.addIssue({ code: 'custom', message: '不抵扣勾选须选择不抵扣原因', path: ['deductReason'] });
    if (Number(b.vatUsage) !== 4 && b.deductReason !== undefined) ctx.addIssue({ code: 'custom', message: '只有不抵扣勾选需要选择原因', path: ['deductReason'] });
    if (Number(b.vatUsage) !== 1 && b.items?.some((i) => i.effectiveTax !== undefined)) ctx.addIssue({ code: 'custom', message: '只有抵扣勾选可以填写有效税额', path: ['items'] });
  });
export type TickBody = z.infer<typeof TickBody>;

export const UntickBody = z
  .object({
    ids: z.array(Uuid, { message: '请选择发票' }).max(TICK_MAX_INVOICES, `一次最多撤销${TICK_MAX_INVOICES}张发票`).optional(),
    filter: CandidateFilter.optional(),
  })
  .superRefine((b, ctx) => {
    if (!b.ids === !b.filter) ctx.addIssue({ code: 'custom', message: '请选择发票，或按筛选结果全选', path: ['ids'] });
    if (b.ids && !b.ids.length) ctx.addIssue({ code: 'custom', message: '请至少选择一张发票', path: ['ids'] });
  });
export type UntickBody = z.infer<typeof UntickBody>;

export interface TickOutcomeRow {
  invoiceId: string;
  /** 数电号码, else 发票代码 + 发票号码. */
  invoiceNumber: string;
  ok: boolean;
  message: string;
}

/**
 * A tick or undo answer. done: every invoice recorded (answered 20000); else nothing was (all-or-nothing),
 * the answer is a refusal (30000, its message the batch's) and outcomes name each invoice's reason.
 * needConfirm: nothing was attempted — the batch holds 疑点 or abnormal invoices (listed in outcomes) and
 * must come back with confirmed: true (20000: a question, not a refusal). `unchanged`: invoices already
 * ticked exactly so (same usage, period, effective tax and reason), left as they were and logged 无变化
 * (their outcome is ok with the words saying so); a batch of nothing else is refused (nothing to do).
 */
export interface TickAnswer {
  done: boolean;
  needConfirm: boolean;
  batchId: string;
  count: number;
  refused: number;
  unchanged?: number;
  outcomes: TickOutcomeRow[];
}

/** The words of a tick or undo answer (the envelope's message): what was done, or why nothing was (naming the invoice when it is one). */
export function tickAnswerMessage(a: TickAnswer, action: 'tick' | 'untick'): string {
  if (a.needConfirm) return TICK_CONFIRM_MESSAGE;
  const verb = action === 'untick' ? '撤销勾选' : '勾选';
  if (a.done) return `${verb}成功${a.count}张${a.unchanged ? `，${a.unchanged}张已按此勾选（无变化）` : ''}`;
  const failed = action === 'untick' ? '撤销失败' : '勾选失败';
  const one = a.outcomes.length === 1 ? a.outcomes[0]! : null;
  if (one) return `${failed}：发票${one.invoiceNumber || '（不存在）'}，${one.message.replace(/^(勾选失败|撤销失败)：/, '')}`;
  if (!a.refused && a.unchanged) return `${failed}：所选${a.unchanged}张发票均已按此勾选，无需重复勾选`;
  return action === 'untick' ? `撤销失败：${a.refused}张发票不能撤销，本批均未撤销` : `勾选失败：${a.refused}张发票不能勾选，本批均未勾选`;
}

/** Import: an .xlsx (base64) with columns 发票代码, 发票号码 (or the 20-digit 数电号码), 有效税额（元）. */
export const TickImportBody = z
  .object({
    file: text({ message: '请选择文件' }).min(1, '请选择文件').max(7_000_000, '文件不能超过5MB'),
    fileName: text().trim().max(200, '文件名不能超过200个字符').default(''),
    vatUsage: incomeOneOf(TickUsage.values, '增值税用途不正确'),
    deductReason: incomeOneOf(NonDeductReason.values, '不抵扣原因不正确').optional(),
    confirmed: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    if (Number(b.vatUsage) === 4 && b.deductReason === undefined) ctx.addIssue({ code: 'custom', message: '不抵扣勾选须选择不抵扣原因', path: ['deductReason'] });
    if (Number(b.vatUsage) !== 4 && b.deductReason !== undefined) ctx.addIssue({ code: 'custom', message: '只有不抵扣勾选需要选择原因', path: ['deductReason'] });
  });
export type TickImportBody = z.infer<typeof TickImportBody>;

export interface TickImportRow {
  /** The sheet's row number. */
  row: number;
  invoiceNumber: string;
  invoiceId: string | null;
  effectiveTax: number | null;
  ok: boolean;
  message: string;
}

export interface TickImportAnswer extends TickAnswer {
  rows: TickImportRow[];
}

const LogFilterShape = {
  userName: optText(50),
  from: isoDay().optional(),
  to: isoDay().optional(),
  /** 发票号码, 数电号码 or 发票代码+号码 (exact). */
  number: optText(40),
  vatUsage: incomeOneOf(TickUsage.values, '增值税用途不正确').optional(),
  action: incomeOneOf(TickAction.values, '操作不正确').optional(),
  result: incomeOneOf(TickResult.values, '结果不正确').optional(),
  batchId: optText(40),
};
const logRange = (f: { from?: string; to?: string }, ctx: z.RefinementCtx) => {
  if (f.from && f.to && f.from > f.to) ctx.addIssue({ code: 'custom', message: '开始日期不能晚于结束日期', path: ['to'] });
};
export const TickLogQuery = PageQuery.extend(LogFilterShape).superRefine(logRange);
export type TickLogQuery = z.infer<typeof TickLogQuery>;
export const TickLogExportQuery = z.object(LogFilterShape).superRefine(logRange);
export type TickLogExportQuery = z.infer<typeof TickLogExportQuery>;

export interface TickLogRow {
  id: string;
  batchId: string;
  invoiceId: string | null;
  invoiceNumber: string;
  kind: string;
  issueDate: string;
  sellerName: string;
  action: string;
  vatUsage: number;
  deductReason: number | null;
  tax: number;
  effectiveTax: number;
  period: string;
  result: number;
  message: string;
  userName: string;
  createdAt: string;
}

export const TickSettingBody = z.object({ tickBookedOnly: z.boolean({ message: '先入账后勾选须为是或否' }) });
export type TickSettingBody = z.infer<typeof TickSettingBody>;
export interface TickSetting {
  tickBookedOnly: boolean;
}
