/** Table types of migration 0028_income_statistics. */
import '../../../db/schema.js';

export interface StatActionTable {
  id: string;
  period: string;
  scope: string;
  action: string;
  /** 0 处理中, 1 成功, 2 失败 (StatActionResult). */
  result: number;
  message: string;
  state_after: number | null;
  /** 1 while the call to the tax service is under way. */
  active: number;
  user_id: string | null;
  user_name: string;
  created_at: string;
  finished_at: string | null;
  /** 0045: the clerk's reason for confirming over open differences ('' when none was needed). */
  reason: string;
  /** 0045: the lines that differed from the bureau's when the action was taken. */
  differences: number;
}

declare module '../../../db/schema.js' {
  interface Database {
    income_stat_actions: StatActionTable;
  }
}
