/** What the workflow service holds about a user: flows started, work items handled, copies received. */
import { describeCounts, type UserRecordCounter } from '../../platform/user-records.js';
import { wf } from './tables.js';

export const workflowUserRecords: UserRecordCounter = async (db, userId) => {
  const k = wf(db);
  const [started, handled, copied] = await Promise.all([
    k.selectFrom('wf_instances').select((eb) => eb.fn.countAll<number>().as('n')).where('starter_id', '=', userId).executeTakeFirst(),
    k.selectFrom('wf_work_items').select((eb) => eb.fn.countAll<number>().as('n')).where('handler_id', '=', userId).executeTakeFirst(),
    k.selectFrom('wf_cc').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return describeCounts([
    [started, (n) => `发起${n}个流程`],
    [handled, (n) => `${n}项流程待办或已办`],
    [copied, (n) => `${n}条流程抄送`],
  ]);
};
