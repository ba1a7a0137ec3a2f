/**
 * 投标管理 › 项目 › 项目经理例外 (issue 29 item 11): /api/tender/project/exception/*. The rules are in
 * ../tender-manager-exceptions.ts; the evidence is a tender attachment of owner kind 'manager-exception'.
 */
import { z } from '../zod-locale.js';
import { ManagerExceptionGround } from '../tender-manager-exceptions.js';
import { isoDay, text } from './common.js';

const RefId = (label: string) => text({ error: `请选择${label}` }).trim().min(1, `请选择${label}`).max(64, `${label}不正确`);
const optDay = (formatMessage?: string) => z.union([isoDay(formatMessage), z.literal(''), z.null()]).optional().transform((v) => v || null);

/** The attachment owner kind of an exception's evidence. */
export const MANAGER_EXCEPTION_OWNER = 'manager-exception';

export const ManagerExceptionBody = z
  .object({
    id: RefId('例外').optional(),
    /** The project the manager may lead in addition. */
    projectId: RefId('项目'),
    managerId: RefId('项目经理'),
    /** The project they already lead. */
    otherProjectId: RefId('所涉的另一个项目'),
    ground: z.number({ error: '请选择例外情形' }).refine((v) => ManagerExceptionGround.has(v), '例外情形不正确'),
    validFrom: isoDay().or(z.literal('')).refine((v) => v !== '', '请填写例外起始日期'),
    validTo: optDay(),
    /** 停工日期: ground 1 only. */
    stopDate: optDay(),
    remark: text().trim().max(200, '说明不能超过200个字符').default(''),
  })
  .refine((b) => !b.validTo || b.validTo >= b.validFrom, { message: '例外截止日期不能早于起始日期', path: ['validTo'] });
export type ManagerExceptionBody = z.input<typeof ManagerExceptionBody>;
export type ManagerExceptionInput = z.output<typeof ManagerExceptionBody>;

export interface ManagerExceptionRow {
  id: string;
  managerId: string;
  managerName: string;
  projectId: string;
  projectCode: string;
  projectName: string;
  otherProjectId: string;
  otherCode: string;
  otherName: string;
  ground: number;
  validFrom: string;
  validTo: string | null;
  stopDate: string | null;
  /** Days from the stop day to today (ground 1), else null. */
  stopDays: number | null;
  remark: string;
  evidenceCount: number;
  /** Null: the exception allows the pair today; else why not (in Chinese). */
  problem: string | null;
  /** Why it ended by itself (its ground no longer holds: the stopped project resumed, a project finished); '' while it runs. */
  endReason?: string;
  createdBy: string;
  createdAt: string;
  updatedBy: string;
  updatedAt: string;
}
