/**
 * The table type of ai_call_logs (migration 0002_system): one row per call of the AI service, written by
 * ./calls.ts, read by the system area's reports. Added to Database by declaration merging.
 */
import '../../db/schema.js';

export interface AiCallLogTable {
  id: string;
  interface_code: string;
  user_id: string | null;
  login_name: string;
  user_name: string;
  success: number;
  duration_ms: number;
  message: string;
  file_name: string;
  /** The Asia/Shanghai calendar day, YYYY-MM-DD (grouping by day on both engines). */
  day: string;
  created_at: string;
}

declare module '../../db/schema.js' {
  interface Database {
    ai_call_logs: AiCallLogTable;
  }
}
