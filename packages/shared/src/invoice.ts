/**
 * Outgoing invoices (销项发票): the vocabulary of DOMAIN.md that both sides share — tax rates and
 * policy flags, line properties, red reasons, special factors, VAT usage, red-letter confirmation
 * states — and the state machines of the invoice, the red-letter confirmation and the cancellation.
 * The spec's own enumerations (status, colour, kind, source) live in enums.ts.
 */
import { defineEnum } from './enum.js';
import { InvoiceKind, InvoiceStatus } from './enums.js';

/** Rates as decimal strings (never floats); the catalogue the line form offers. */
export interface TaxRateOption {
  value: string;
  label: string;
  /** general taxpayer rate, or a simplified 征收率 */
  kind: 'general' | 'simplified';
}

export const TAX_RATES: readonly TaxRateOption[] = [
  { value: '0.13', label: '13%', kind: 'general' },
  { value: '0.09', label: '9%', kind: 'general' },
  { value: '0.06', label: '6%', kind: 'general' },
  { value: '0', label: '0%', kind: 'general' },
  { value: '0.05', label: '5%（简易征收）', kind: 'simplified' },
  { value: '0.03', label: '3%（简易征收）', kind: 'simplified' },
  { value: '0.015', label: '1.5%（简易征收）', kind: 'simplified' },
  { value: '0.01', label: '1%（简易征收）', kind: 'simplified' },
];

const RATE_VALUES = new Set(TAX_RATES.map((r) => r.value));
/** The canonical form of a rate ('0.090' → '0.09', '9%' → '0.09'), or null when it is not in the catalogue. */
export function normaliseRate(rate: string): string | null {
  const t = rate.trim();
  const pct = t.endsWith('%') ? Number(t.slice(0, -1)) / 100 : Number(t);
  if (!Number.isFinite(pct)) return null;
  const found = TAX_RATES.find((r) => Math.abs(Number(r.value) - pct) < 1e-9);
  return found && RATE_VALUES.has(found.value) ? found.value : null;
}
export const rateLabel = (rate: string) => TAX_RATES.find((r) => r.value === normaliseRate(rate))?.label ?? rate;

/**
 * The one list of VAT rates and levy rates (税率 / 征收率) every form and route accepts (issue 27): the
 * values of TAX_RATES, as stored ('0.09'). 免税 and 不征税 are rate 0 (with the line's policy, TaxPolicy,
 * where the form has one: outgoing invoices); nothing else (0.5, 0.17 …) is a rate.
 */
export const TAX_RATE_VALUES: readonly string[] = TAX_RATES.map((r) => r.value);
/** For messages: 0、1%、1.5%、3%、5%、6%、9%、13%（免税、不征税按0） */
export const TAX_RATE_LIST_TEXT = `${[...TAX_RATES].sort((a, b) => Number(a.value) - Number(b.value)).map((r) => (r.value === '0' ? '0' : r.label.replace(/（.*）$/, ''))).join('、')}（免税、不征税按0）`;
/** The rates as people write them (13%, 1.5%, 0%): the options of form selects that store the percent (KP01). */
export const TAX_RATE_PERCENTS: readonly string[] = TAX_RATES.map((r) => r.label.replace(/（.*）$/, ''));
/** The options of every rate select: value as stored, label as printed. */
export const TAX_RATE_OPTIONS: ReadonlyArray<{ value: string; label: string }> = TAX_RATES.map((r) => ({ value: r.value, label: r.label }));
/** A rate typed anywhere: in the list (any spelling normaliseRate reads), else the refusal's message. */
export const taxRateProblem = (rate: string): string | null => (normaliseRate(rate) === null ? `税率不在税率表中，可选：${TAX_RATE_LIST_TEXT}` : null);

/** Preferential policy of a line (Nuonuo's favouredPolicyFlag / zeroRateFlag). */
export const TaxPolicy = defineEnum({
  none: [0, '无'],
  exempt: [1, '免税'],
  notTaxable: [2, '不征税'],
  zeroRate: [3, '普通零税率'],
  simplified: [4, '简易征收'],
});

export const LineProperty = defineEnum({
  normal: [0, '正常行'],
  discount: [1, '折扣行'],
  discounted: [2, '被折扣行'],
});

export const RedReason = defineEnum({
  salesReturn: [1, '销货退回'],
  wrongInvoice: [2, '开票有误'],
  serviceStopped: [3, '服务中止'],
  salesAllowance: [4, '销售折让'],
});

export const SpecialFactor = defineEnum({
  none: [0, '无'],
  construction: [31, '建筑服务'],
  realEstate: [32, '不动产经营租赁'],
});

export const VatUsage = defineEnum({
  deduct: [1, '已抵扣'],
  exportRefund: [2, '出口退税'],
  agentRefund: [3, '代办退税'],
  noDeduct: [4, '未抵扣'],
});

/** Red-letter confirmation states: the bureau's 01–10, Nuonuo's 15/16, and our own 00 (saved, not yet sent). */
export const RedConfirmState = defineEnum({
  draft: ['00', '待提交'],
  noConfirmNeeded: ['01', '无需确认'],
  sellerAwaitingBuyer: ['02', '销方录入待购方确认'],
  buyerAwaitingSeller: ['03', '购方录入待销方确认'],
  confirmed: ['04', '购销双方已确认'],
  voidBuyerRefused: ['05', '作废（购方已拒绝）'],
  voidSellerRefused: ['06', '作废（销方已拒绝）'],
  voidTimeout: ['07', '作废（超72小时未确认）'],
  voidWithdrawn: ['08', '作废（已撤销）'],
  voidWithdrawnAfterConfirm: ['09', '作废（确认后撤销）'],
  voidAbnormal: ['10', '作废（异常凭证）'],
  applying: ['15', '申请中'],
  applyFailed: ['16', '申请失败'],
});
export type RedConfirmStateValue = (typeof RedConfirmState.values)[number];

/** The red invoice is issued automatically in these states and must be fetched. */
export const RED_ISSUED_STATES: readonly string[] = [RedConfirmState.noConfirmNeeded, RedConfirmState.confirmed];
/** States the tax service may still move on by itself (refresh asks about these). */
export const RED_OPEN_STATES: readonly string[] = [RedConfirmState.applying, RedConfirmState.sellerAwaitingBuyer, RedConfirmState.buyerAwaitingSeller];

export const CancellationState = defineEnum({
  canceling: [31, '作废中'],
  done: [3, '已作废'],
  failed: [90, '作废失败'],
  invalid: [91, '已置为无效'],
});

export const isDigitalKind = (kind: number) => kind === InvoiceKind.bs || kind === InvoiceKind.pc;
export const isPaperKind = (kind: number) => kind === InvoiceKind.c || kind === InvoiceKind.s;
export const isSpecialKind = (kind: number) => kind === InvoiceKind.s || kind === InvoiceKind.bs;

/** Tag colours of the invoice statuses (the web's StatusTag). */
export const INVOICE_STATUS_COLOURS: Record<number, string> = {
  [InvoiceStatus.none]: 'default',
  [InvoiceStatus.creating]: 'processing',
  [InvoiceStatus.signing]: 'processing',
  [InvoiceStatus.created]: 'success',
  [InvoiceStatus.creationFailed]: 'error',
  [InvoiceStatus.signFailed]: 'warning',
  [InvoiceStatus.canceling]: 'processing',
  [InvoiceStatus.cancelled]: 'default',
};

// ---------------------------------------------------------------------------------------------
// State machines: explicit tables of allowed transitions (ARCHITECTURE.md). Anything else is refused.

export type InvoiceAction = 'issue' | 'progress' | 'succeed' | 'fail' | 'signFail' | 'resubmit' | 'reissue' | 'cancel' | 'cancelDone' | 'cancelUndone' | 'invalidate' | 'edit';

const S = InvoiceStatus;
/** action → the states it may start from and the state it leads to. */
export const INVOICE_TRANSITIONS: Record<InvoiceAction, { from: readonly number[]; to: number | 'same' }> = {
  issue: { from: [S.none], to: S.creating },
  progress: { from: [S.creating], to: S.signing },
  succeed: { from: [S.creating, S.signing], to: S.created },
  fail: { from: [S.creating, S.signing], to: S.creationFailed },
  signFail: { from: [S.creating, S.signing], to: S.signFailed },
  resubmit: { from: [S.creationFailed], to: S.creating },
  reissue: { from: [S.signFailed], to: S.creating },
  cancel: { from: [S.created], to: S.canceling },
  cancelDone: { from: [S.canceling], to: S.cancelled },
  cancelUndone: { from: [S.canceling], to: S.created },
  invalidate: { from: [S.none, S.creationFailed], to: 'same' },
  edit: { from: [S.none, S.creationFailed], to: 'same' },
};

export function invoiceTransition(action: InvoiceAction, from: number): number | null {
  const t = INVOICE_TRANSITIONS[action];
  if (!t.from.includes(from)) return null;
  return t.to === 'same' ? from : t.to;
}

/** The Chinese refusal for an illegal move, naming the current state. */
export function invoiceRefusal(action: InvoiceAction, from: number): string {
  const what: Record<InvoiceAction, string> = {
    issue: '开票',
    progress: '更新为签章中',
    succeed: '更新为开票成功',
    fail: '更新为开票失败',
    signFail: '更新为签章失败',
    resubmit: '修改后重新提交',
    reissue: '重新开具',
    cancel: '作废',
    cancelDone: '确认作废',
    cancelUndone: '撤回作废',
    invalidate: '置为无效',
    edit: '修改',
  };
  return `发票当前状态为「${InvoiceStatus.label(from)}」，不能${what[action]}`;
}

export type RedConfirmMove = 'save' | 'apply' | 'applied' | 'confirm' | 'refuse' | 'cancel' | 'bureau';

const R = RedConfirmState;
/**
 * Our own moves on a confirmation; `to` is a state, 'same' (unchanged) or 'result' (what the tax
 * service answers). Bureau updates arrive by refresh and may set any state.
 */
export const RED_CONFIRM_TRANSITIONS: Record<Exclude<RedConfirmMove, 'bureau'>, { from: readonly string[]; to: string }> = {
  save: { from: [R.draft, R.applyFailed], to: 'same' },
  apply: { from: [R.draft, R.applyFailed], to: R.applying },
  applied: { from: [R.applying], to: 'result' },
  confirm: { from: [R.buyerAwaitingSeller], to: R.confirmed },
  refuse: { from: [R.buyerAwaitingSeller], to: R.voidSellerRefused },
  cancel: { from: [R.draft, R.applyFailed, R.sellerAwaitingBuyer], to: R.voidWithdrawn },
};

export function redConfirmAllowed(move: Exclude<RedConfirmMove, 'bureau'>, from: string): boolean {
  return RED_CONFIRM_TRANSITIONS[move].from.includes(from);
}

export function redConfirmRefusal(move: Exclude<RedConfirmMove, 'bureau'>, from: string): string {
  const what = { save: '修改', apply: '提交申请', applied: '登记申请结果', confirm: '确认', refuse: '拒绝', cancel: '撤销' }[move];
  return `红字确认单当前状态为「${RedConfirmState.label(from)}」，不能${what}`;
}
