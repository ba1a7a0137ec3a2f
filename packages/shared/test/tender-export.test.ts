import { describe, expect, it } from 'vitest';
import { CertificateCreateBody, PerformanceCheckBody, PerformanceCreateBody, TenderExportJobQuery, unfinishedExport } from '../src/index.js';

const msg = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues.map((i) => i.message);

describe('tender export bodies', () => {
  const check = { contractIds: ['a', 'b'], deadline: '2026-11-30', years: 5, thresholdFen: 0 };
  it('checks a performance pick', () => {
    expect(PerformanceCheckBody.safeParse(check).success).toBe(true);
    expect(msg(PerformanceCheckBody.safeParse({ ...check, contractIds: [] }))).toEqual(['请至少选择一个合同']);
    expect(msg(PerformanceCheckBody.safeParse({ ...check, contractIds: ['a', 'a'] }))).toEqual(['合同重复']);
    expect(msg(PerformanceCheckBody.safeParse({ ...check, years: 11 }))).toEqual(['年限须在1到10年之间']);
    expect(msg(PerformanceCheckBody.safeParse({ ...check, deadline: '2026-02-30' }))).toHaveLength(1);
  });
  it('defaults the export options and refuses a bad format', () => {
    const out = PerformanceCreateBody.parse({ ...check, title: '业绩', format: 'pdf' });
    expect(out).toMatchObject({ watermark: '', force: false });
    expect(msg(PerformanceCreateBody.safeParse({ ...check, title: ' ', format: 'doc' }))).toEqual(['请填写导出标题', '导出格式须为PDF或ZIP']);
  });
  it('needs at least one certificate or title', () => {
    expect(msg(CertificateCreateBody.safeParse({ deadline: '2026-11-30', title: '证书', format: 'zip' }))).toEqual(['请至少选择一个证书']);
    expect(CertificateCreateBody.safeParse({ titleIds: ['t'], deadline: '2026-11-30', title: '证书', format: 'zip' }).success).toBe(true);
  });
  it('lists ten jobs by default; a job is unfinished while queued or running', () => {
    expect(TenderExportJobQuery.parse({})).toEqual({ limit: 10 });
    expect([unfinishedExport({ state: 'queued' }), unfinishedExport({ state: 'running' }), unfinishedExport({ state: 'done' }), unfinishedExport({ state: 'failed' })]).toEqual([true, true, false, false]);
  });
});
