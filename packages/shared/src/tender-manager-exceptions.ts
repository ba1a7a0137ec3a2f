/**
 * 投标管理 › 项目 (issue 29 item 11): the lawful exceptions to the registered-manager rule. 注册建造师执业管理办法
 * （试行）(建市〔2008〕48号) 第九条: a registered constructor may not lead two or more construction projects at
 * once, except (一) 同一工程相邻分段发包或分期施工的; (二) 合同约定的工程验收合格的; (三) 因非承包方原因致使工程项目
 * 停工超过120天（含），经建设单位同意的. (二) is the project state 完工 (a finished project frees its manager);
 * (一) and (三) are recorded as exceptions, one per (manager, project, other project), with evidence.
 * The text and its source: docs/tender.md "Registered builders' exceptions".
 */
import { defineEnum } from './enum.js';
import { daysBetween } from './reimbursement-rules.js';
import { ProjectState } from './tender-contract-rules.js';

export const ManagerExceptionGround = defineEnum({
  suspended: [1, '停工120天以上（含）且经建设单位同意'],
  adjacent: [2, '同一工程相邻分段发包'],
  phased: [3, '同一发包人分期施工'],
});

/** 第九条（三）: 停工超过120天（含）. */
export const SUSPENSION_MIN_DAYS = 120;
export const MANAGER_EXCEPTION_ARTICLE = '注册建造师执业管理办法（试行）第九条';
/** The article's item each ground rests on. */
export const GROUND_ITEM: Record<number, string> = { 1: '第九条（三）', 2: '第九条（一）', 3: '第九条（一）' };

/** The day `n` days after `day` (YYYY-MM-DD). */
export const dayPlus = (day: string, n: number): string => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export interface ExceptionProject {
  code: string;
  name: string;
  customer: string;
  state: number;
  managerId: string | null;
}

export interface ExceptionFacts {
  ground: number;
  managerId: string;
  managerName: string;
  /** The project the manager may lead in addition. */
  project: ExceptionProject & { id: string };
  /** The project they already lead (the stopped one for 停工; the neighbouring section or phase otherwise). */
  other: ExceptionProject & { id: string };
  validFrom: string;
  validTo: string | null;
  stopDate: string | null;
  /** Why it ended by itself ('' or absent while it runs): exceptionEndReason's sentence, kept when it ended. */
  endReason?: string;
}

const label = (p: { code: string; name: string }) => `「${p.code} ${p.name}」`;
const sameClient = (a: string, b: string) => a.trim() !== '' && a.trim() === b.trim();

/**
 * Why an exception may not be recorded (null: it may): the facts the article asks for, as of `today`.
 * Evidence and the days it holds are checked when it is used (exceptionInForce), since the evidence is
 * uploaded after the record exists.
 */
export function exceptionRecordProblem(f: ExceptionFacts, today: string): string | null {
  if (!ManagerExceptionGround.has(f.ground)) return '例外情形不正确';
  if (f.project.id === f.other.id) return '例外所涉的另一个项目不能是本项目';
  if (f.other.managerId !== f.managerId) return `${label(f.other)}的项目经理不是${f.managerName || '所选人员'}，无需登记例外`;
  if (f.validTo && f.validTo < f.validFrom) return '例外截止日期不能早于起始日期';
  if (f.ground === ManagerExceptionGround.suspended) {
    if (!f.stopDate) return '请填写停工日期';
    if (f.stopDate > today) return '停工日期不能晚于今天';
    if (f.other.state !== ProjectState.suspended) return `${label(f.other)}不是停工状态，不能按停工情形登记例外`;
    const days = daysBetween(f.stopDate, today);
    if (days < SUSPENSION_MIN_DAYS)
      return `${label(f.other)}自${f.stopDate}停工至今${days}天，不足${SUSPENSION_MIN_DAYS}天，不能按停工情形登记例外（${MANAGER_EXCEPTION_ARTICLE}（三）：停工超过120天（含））`;
    const from = dayPlus(f.stopDate, SUSPENSION_MIN_DAYS);
    if (f.validFrom < from) return `例外起始日期不能早于停工满${SUSPENSION_MIN_DAYS}天之日（${from}）`;
    return null;
  }
  const what = f.ground === ManagerExceptionGround.adjacent ? '相邻分段' : '分期施工';
  if (!f.project.customer.trim() || !f.other.customer.trim()) return `${label(f.project.customer.trim() ? f.other : f.project)}未填写客户，无法核对是否同一发包人`;
  if (!sameClient(f.project.customer, f.other.customer))
    return `${what}须为同一发包人的工程：${label(f.project)}的客户为“${f.project.customer.trim()}”，${label(f.other)}为“${f.other.customer.trim()}”`;
  return null;
}

/**
 * Why an exception does not allow the pair today (null: it does): the record's facts still hold, the day is
 * within its days, and it has evidence (the client's consent to the stop, the sections' or phases' contract).
 */
export function exceptionInForceProblem(f: ExceptionFacts & { evidenceCount: number }, today: string): string | null {
  if (f.endReason) return `例外已于${f.validTo ?? today}终止：${f.endReason}`;
  const recorded = exceptionRecordProblem(f, today);
  if (recorded) return recorded;
  if (today < f.validFrom) return `例外自${f.validFrom}起有效，尚未生效`;
  if (f.validTo && today > f.validTo) return `例外已于${f.validTo}到期`;
  if (f.evidenceCount < 1) return f.ground === ManagerExceptionGround.suspended ? '例外尚未上传证明材料（建设单位同意的书面文件、停工证明）' : '例外尚未上传证明材料（相邻分段或分期施工的合同、招标文件等）';
  return null;
}

/**
 * Why an exception ends by itself (null: its ground still holds), from the projects' states as saved: a project
 * finished frees its manager (第九条（二）), so neither side needs the exception any more; a stopped project that
 * is no longer 停工 ends the 停工 ground (第九条（三）). The manager or the client changing is not an end: the
 * exception is then simply not in force (exceptionInForceProblem) and may hold again.
 */
export function exceptionEndReason(f: Pick<ExceptionFacts, 'ground' | 'project' | 'other'>): string | null {
  const done = [f.project, f.other].find((p) => p.state === ProjectState.finished);
  if (done) return `${label(done)}已完工（${MANAGER_EXCEPTION_ARTICLE}（二）），例外自动终止`;
  if (f.ground === ManagerExceptionGround.suspended && f.other.state !== ProjectState.suspended)
    return `${label(f.other)}已不再停工（现为${ProjectState.label(f.other.state)}），停工情形不再成立，例外自动终止`;
  return null;
}

/** Days before a time-bound exception's end day at which the project's manager is reminded (once per end day). */
export const EXCEPTION_REMIND_DAYS = 30;

/** The sentence naming the rule that allowed a pair: shown on the save and in the log. */
export const exceptionAllowance = (managerName: string, other: { code: string; name: string }, ground: number): string =>
  `${managerName || '项目经理'}同时担任${label(other)}的项目经理，依据${MANAGER_EXCEPTION_ARTICLE.replace('第九条', GROUND_ITEM[ground] ?? '第九条')}：${ManagerExceptionGround.label(ground)}`;
