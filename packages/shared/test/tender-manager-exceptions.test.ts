/**
 * Issue 29 item 11: the lawful exceptions of 注册建造师执业管理办法（试行）第九条 — 停工 of 120 days (含) counted
 * from the stop day (119 refused, 120 allowed), the start of the exception not before the 120th day, the
 * stopped project in state 停工; adjacent sections and phases of the same client only; in force only within
 * its days and with evidence.
 */
import { describe, expect, it } from 'vitest';
import { ManagerExceptionGround, ProjectState, dayPlus, exceptionAllowance, exceptionEndReason, exceptionInForceProblem, exceptionRecordProblem, type ExceptionFacts } from '../src/index.js';

const base = (over: Partial<ExceptionFacts> = {}): ExceptionFacts => ({
  ground: ManagerExceptionGround.suspended,
  managerId: 'm',
  managerName: '张伟',
  project: { id: 'b', code: 'XM-2', name: '江北管廊二期', customer: '南京江北新区建设投资集团', state: ProjectState.building, managerId: 'm' },
  other: { id: 'a', code: 'XM-1', name: '江北管廊一期', customer: '南京江北新区建设投资集团', state: ProjectState.suspended, managerId: 'm' },
  validFrom: '2026-05-01',
  validTo: null,
  stopDate: '2026-01-01',
  ...over,
});

describe('停工 120 days (含)', () => {
  it('counts the days from the stop day: 119 refused, 120 allowed', () => {
    expect(dayPlus('2026-01-01', 120)).toBe('2026-05-01');
    expect(exceptionRecordProblem(base(), '2026-04-30')).toBe(
      '「XM-1 江北管廊一期」自2026-01-01停工至今119天，不足120天，不能按停工情形登记例外（注册建造师执业管理办法（试行）第九条（三）：停工超过120天（含））',
    );
    expect(exceptionRecordProblem(base(), '2026-05-01')).toBeNull();
  });
  it('the exception starts on the 120th day at the earliest', () => {
    expect(exceptionRecordProblem(base({ validFrom: '2026-04-30' }), '2026-06-01')).toBe('例外起始日期不能早于停工满120天之日（2026-05-01）');
    expect(exceptionRecordProblem(base({ validFrom: '2026-05-01' }), '2026-06-01')).toBeNull();
  });
  it('needs a stop day not after today, and the other project stopped', () => {
    expect(exceptionRecordProblem(base({ stopDate: null }), '2026-06-01')).toBe('请填写停工日期');
    expect(exceptionRecordProblem(base({ stopDate: '2026-06-02' }), '2026-06-01')).toBe('停工日期不能晚于今天');
    expect(exceptionRecordProblem(base({ other: { ...base().other, state: ProjectState.building } }), '2026-06-01')).toBe('「XM-1 江北管廊一期」不是停工状态，不能按停工情形登记例外');
  });
});

describe('adjacent sections and phases: the same client', () => {
  const adjacent = (customer: string, ground: number = ManagerExceptionGround.adjacent) =>
    base({ ground, stopDate: null, other: { ...base().other, state: ProjectState.building, customer } });
  it('the same client (spaces aside) passes; another is refused, naming both', () => {
    expect(exceptionRecordProblem(adjacent(' 南京江北新区建设投资集团 '), '2026-06-01')).toBeNull();
    expect(exceptionRecordProblem(adjacent('南京地铁集团'), '2026-06-01')).toBe('相邻分段须为同一发包人的工程：「XM-2 江北管廊二期」的客户为“南京江北新区建设投资集团”，「XM-1 江北管廊一期」为“南京地铁集团”');
    expect(exceptionRecordProblem(adjacent('南京地铁集团', ManagerExceptionGround.phased), '2026-06-01')).toBe('分期施工须为同一发包人的工程：「XM-2 江北管廊二期」的客户为“南京江北新区建设投资集团”，「XM-1 江北管廊一期」为“南京地铁集团”');
    expect(exceptionRecordProblem(adjacent(''), '2026-06-01')).toBe('「XM-1 江北管廊一期」未填写客户，无法核对是否同一发包人');
  });
  it('the other project must be led by the same manager, and be another project', () => {
    expect(exceptionRecordProblem(base({ other: { ...base().other, managerId: 'x' } }), '2026-06-01')).toBe('「XM-1 江北管廊一期」的项目经理不是张伟，无需登记例外');
    expect(exceptionRecordProblem(base({ other: { ...base().other, id: 'b' } }), '2026-06-01')).toBe('例外所涉的另一个项目不能是本项目');
  });
});

describe('in force', () => {
  it('within its days and with evidence only', () => {
    const f = { ...base({ validTo: '2026-12-31' }), evidenceCount: 1 };
    expect(exceptionInForceProblem(f, '2026-06-01')).toBeNull();
    expect(exceptionInForceProblem({ ...f, evidenceCount: 0 }, '2026-06-01')).toBe('例外尚未上传证明材料（建设单位同意的书面文件、停工证明）');
    expect(exceptionInForceProblem({ ...f, validFrom: '2026-07-01' }, '2026-06-01')).toBe('例外自2026-07-01起有效，尚未生效');
    expect(exceptionInForceProblem(f, '2027-01-01')).toBe('例外已于2026-12-31到期');
    // The stopped project resumed: the ground no longer holds.
    expect(exceptionInForceProblem({ ...f, other: { ...f.other, state: ProjectState.building } }, '2026-06-01')).toBe('「XM-1 江北管廊一期」不是停工状态，不能按停工情形登记例外');
  });
  it('names the article item that allowed it', () => {
    expect(exceptionAllowance('张伟', { code: 'XM-1', name: '江北管廊一期' }, ManagerExceptionGround.suspended)).toBe(
      '张伟同时担任「XM-1 江北管廊一期」的项目经理，依据注册建造师执业管理办法（试行）第九条（三）：停工120天以上（含）且经建设单位同意',
    );
    expect(exceptionAllowance('张伟', { code: 'XM-1', name: '江北管廊一期' }, ManagerExceptionGround.adjacent)).toContain('第九条（一）：同一工程相邻分段发包');
  });
});

describe('an exception ends by itself when its ground no longer holds', () => {
  it('a project finished (第九条（二）), the stopped project no longer 停工; not while it holds, nor for a changed client', () => {
    expect(exceptionEndReason(base())).toBeNull();
    expect(exceptionEndReason(base({ other: { ...base().other, state: ProjectState.finished } }))).toBe('「XM-1 江北管廊一期」已完工（注册建造师执业管理办法（试行）第九条（二）），例外自动终止');
    expect(exceptionEndReason(base({ project: { ...base().project, state: ProjectState.finished } }))).toBe('「XM-2 江北管廊二期」已完工（注册建造师执业管理办法（试行）第九条（二）），例外自动终止');
    expect(exceptionEndReason(base({ other: { ...base().other, state: ProjectState.building } }))).toBe('「XM-1 江北管廊一期」已不再停工（现为在建），停工情形不再成立，例外自动终止');
    const adjacent = base({ ground: ManagerExceptionGround.adjacent, stopDate: null, other: { ...base().other, state: ProjectState.building } });
    expect(exceptionEndReason(adjacent)).toBeNull();
    expect(exceptionEndReason({ ...adjacent, other: { ...adjacent.other, customer: '别的发包人' } })).toBeNull();
  });
  it('an ended exception is not in force, whatever else holds', () => {
    expect(exceptionInForceProblem({ ...base({ validTo: '2026-06-10', endReason: '「XM-1 江北管廊一期」已完工' }), evidenceCount: 2 }, '2026-06-11')).toBe('例外已于2026-06-10终止：「XM-1 江北管廊一期」已完工');
    expect(exceptionInForceProblem({ ...base({ endReason: '' }), evidenceCount: 1 }, '2026-06-01')).toBeNull();
  });
});
