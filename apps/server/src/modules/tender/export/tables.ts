/** Table types of migration 0038_tender_exports (declaration merging, as the other areas' tables.ts do). */
import '../../../db/schema.js';

export type TenderExportKind = 'performance' | 'certificate';
export type TenderExportFormat = 'pdf' | 'zip';
export type TenderExportState = 'queued' | 'running' | 'done' | 'failed';
export type TenderExportItemKind = 'contract' | 'certificate' | 'title';

export interface TenderExportTable {
  id: string;
  kind: TenderExportKind;
  format: TenderExportFormat;
  title: string;
  /** JSON text: the export's options, read by its resolver. */
  params: string;
  state: TenderExportState;
  /** 0–100 */
  progress: number;
  /** What is being done, in Chinese (shown beside the progress bar). */
  step: string;
  /** Why it failed, in Chinese. */
  error: string | null;
  /** Raised by each claim; fences the writes of a runner that lost the job. */
  attempt: number;
  file_name: string;
  storage_key: string | null;
  size: number | null;
  sha256: string | null;
  item_count: number;
  page_count: number | null;
  created_by: string;
  created_by_name: string;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface TenderExportItemTable {
  export_id: string;
  position: number;
  item_kind: TenderExportItemKind;
  item_id: string;
  label: string;
}

declare module '../../../db/schema.js' {
  interface Database {
    tender_exports: TenderExportTable;
    tender_export_items: TenderExportItemTable;
  }
}
