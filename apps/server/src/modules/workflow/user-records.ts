/** What the workflow service holds about a user: flows started, work items handled, copies received. */
import { countOf, type UserRecordCounter } from '../../platform/user-records.js';
import { wf } from './tables.js';

export const workflowUserRecords: UserRecordCounter = async (db, userId) => {
  const k = wf(db);
  const [started, handled, copied] = await Promise.all([
    k.selectFrom('wf_instances').select((eb) => eb.fn.countAll<number>().as('n')).where('starter_id', '=', userId).executeTakeFirst(),
    k.selectFrom('wf_work_items').select((eb) => eb.fn.countAll<number>().as('n')).where('handler_id', '=', userId).executeTakeFirst(),
    k.selectFrom('wf_cc').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).executeTakeFirst(),
  ]);
  const parts = [
    countOf(started) ? `发起${countOf(started)}个流程` : '',
    countOf(handled) ? `${countOf(handled)}项流程待办或已办` : '',
    countOf(copied) ? `${countOf(copied)}条流程抄送` : '',
  ].filter(Boolean);
  return parts.length ? parts.join('、') : null;
};
