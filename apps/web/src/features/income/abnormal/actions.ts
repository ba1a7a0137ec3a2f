/** Which actions a case offers (the server's rules, abnormal/actions.ts and transfer.ts, decide again). */
import { DEAD_FLAGS, REVIEW_FLAGS, RISK_FLAGS, SUSPECT_FLAGS, type AbnormalCaseRow } from '@zhyy/shared';

export type CaseAction = 'acceptProposal' | 'untick' | 'transferOut' | 'confirm' | 'correct' | 'reject';

export const ACTION_LABELS: Record<CaseAction, string> = { acceptProposal: '确认转出建议', untick: '撤销勾选', transferOut: '进项转出', confirm: '确认无误', correct: '更正', reject: '驳回' };

export function actionsOf(c: AbnormalCaseRow): CaseAction[] {
  if (c.state !== 'open') return [];
  const ticked = c.tickState === 1;
  const deducted = ticked && c.vatUsage === 1;
  // Issue 32: the status re-check proposed an amount for a deducted invoice — its confirmation comes first.
  const proposed: CaseAction[] = deducted && !c.transferOut && c.proposal?.amount != null ? ['acceptProposal'] : [];
  if (SUSPECT_FLAGS.includes(c.flag)) return deducted ? ['confirm', 'transferOut'] : ['confirm'];
  if (DEAD_FLAGS.includes(c.flag) && proposed.length) return [...proposed, 'untick', 'transferOut'];
  if (RISK_FLAGS.includes(c.flag) && proposed.length) return [...proposed, 'transferOut'];
  if (DEAD_FLAGS.includes(c.flag)) return ticked ? (deducted ? ['untick', 'transferOut'] : ['untick']) : ['confirm'];
  if (RISK_FLAGS.includes(c.flag)) return deducted ? ['transferOut'] : ['confirm'];
  if (REVIEW_FLAGS.includes(c.flag)) return ['confirm', 'correct', 'reject'];
  return ['confirm'];
}
