/**
 * 0028_income_statistics (issue 14, period statistics): income_stat_actions, one row per statistics action
 * (申请统计, 确认统计, 撤销申请, 撤销确认) with who, when, the result and the service's message. A row is
 * `active` while its call to the tax service is under way: the partial unique index lets one action per
 * period and scope be under way at a time, so two clicks or two servers make one call (service.ts). Also
 * the simulator's part (0028_income_statistics.taxsim.ts: 退税统计 state, registered invoices' amounts).
 */
import { sql, type Kysely } from 'kysely';
import * as sim from './0028_income_statistics.taxsim.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('income_stat_actions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('result', 'integer', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('state_after', 'integer')
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'text')
    .addColumn('user_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('income_stat_actions_period_idx').on('income_stat_actions').columns(['scope', 'period', 'created_at']).execute();
  await db.schema.createIndex('income_stat_actions_active_uq').on('income_stat_actions').columns(['scope', 'period']).unique().where(sql.ref('active'), '=', 1).execute();
  await sim.up(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sim.down(db);
  await db.schema.dropTable('income_stat_actions').execute();
}
