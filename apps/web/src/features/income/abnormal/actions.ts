/** Which actions a case offers (the server's rules, abnormal/actions.ts and transfer.ts, decide again). */
import { DEAD_FLAGS, REVIEW_FLAGS, RISK_FLAGS, type AbnormalCaseRow } from '@zhyy/shared';

export type CaseAction = 'untick' | 'transferOut' | 'confirm' | 'correct' | 'reject';

export const ACTION_LABELS: Record<CaseAction, string> = { untick: '撤销勾选', transferOut: '进项转出', confirm: '确认无误', correct: '更正', reject: '驳回' };

export function actionsOf(c: AbnormalCaseRow): CaseAction[] {
  if (c.state !== 'open') return [];
  const ticked = c.tickState === 1;
  const deducted = ticked && c.vatUsage === 1;
  if (DEAD_FLAGS.includes(c.flag)) return ticked ? (deducted ? ['untick', 'transferOut'] : ['untick']) : ['confirm'];
  if (RISK_FLAGS.includes(c.flag)) return deducted ? ['transferOut'] : ['confirm'];
  if (REVIEW_FLAGS.includes(c.flag)) return ['confirm', 'correct', 'reject'];
  return ['confirm'];
}
