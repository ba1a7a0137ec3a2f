/**
 * 0015_leave_days_derived (issue 12, item 6): 请假天数 of the leave template (QJ01) is derived from
 * 请假时间 by the shared work calendar. Templates already stored get the field's derivation and its
 * new help text, in every version, so a request sent from an older version is checked the same way.
 * A database without the template (seeded later) is left as it is.
 */
import type { Kysely } from 'kysely';

const HELP = '按请假时间内的工作日自动计算（周末不计，法定节假日未计入）；首尾两天可各少算半天';

export async function up(db: Kysely<any>): Promise<void> {
  const rows = (await db.selectFrom('wf_templates').select(['id', 'definition']).where('flow_no', '=', 'QJ01').execute()) as Array<{ id: string; definition: string }>;
  for (const row of rows) {
    const def = JSON.parse(row.definition) as { form?: Array<Record<string, unknown>> };
    const days = def.form?.find((f) => f.key === 'days' && f.type === 'number');
    const period = def.form?.find((f) => f.key === 'period' && f.type === 'dateRange');
    if (!days || !period || days.workdaysOf) continue;
    Object.assign(days, { workdaysOf: 'period', halfDays: true, help: HELP });
    await db.updateTable('wf_templates').set({ definition: JSON.stringify(def) }).where('id', '=', row.id).execute();
  }
}
