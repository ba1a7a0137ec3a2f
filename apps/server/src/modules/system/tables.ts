/**
 * Table types of migration 0002_system, added to the platform's Database type by declaration
 * merging (the platform's schema.ts stays as it is).
 */
import '../../db/schema.js';
// ai_call_logs (also of 0002): integrations/ai/tables.ts, the AI calls' own log.
import '../../integrations/ai/tables.js';

export interface SignInLocationTable {
  session_id: string;
  user_id: string;
  ip: string;
  country: string;
  province: string;
  city: string;
  isp: string;
  /** What the screens show: 省 市, 国家, or 内网. */
  location: string;
  /** 1 when the user had signed in before, never from this location. */
  new_city: number;
  signed_in_at: string;
}

export interface FileExportLogTable {
  id: string;
  /** export | download */
  kind: string;
  category: string;
  description: string;
  file_name: string;
  row_count: number | null;
  /** Bytes, hash and number of items of an exported or downloaded file (tender exports; null elsewhere). */
  size: number | null;
  sha256: string | null;
  item_count: number | null;
  user_id: string | null;
  login_name: string;
  user_name: string;
  dept_name: string;
  day: string;
  created_at: string;
}

declare module '../../db/schema.js' {
  interface Database {
    sign_in_locations: SignInLocationTable;
    file_export_logs: FileExportLogTable;
  }
}
