/** Table types of migration 0035_tender_files (declaration merging, as the other areas' tables.ts do). */
import '../../../db/schema.js';

export interface TenderAttachmentTable {
  id: string;
  owner_kind: string;
  owner_id: string;
  /** AttachmentType code, 0: none in particular. */
  kind: number;
  file_name: string;
  mime: string;
  /** bigint (db/pg.ts reads int8 as a number). */
  size: number;
  sha256: string;
  storage_key: string;
  uploaded_by: string;
  uploaded_at: string;
}

export interface TenderSettingTable {
  key: string;
  /** JSON */
  value: string;
  updated_by: string;
  updated_at: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    tender_attachments: TenderAttachmentTable;
    tender_settings: TenderSettingTable;
  }
}
