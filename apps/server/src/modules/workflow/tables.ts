/**
 * Table types of the workflow service (migration 0003_workflow). The module reaches them through
 * `wf(db)`, Kysely's `withTables`, so the platform's schema.ts stays the platform's.
 */
import type { Generated, Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface WfTemplateTable {
  id: string;
  flow_no: string;
  version: number;
  /** 1 for the version new instances start on. */
  is_current: number;
  enabled: number;
  name: string;
  category: string;
  description: string;
  record_type: string | null;
  sort: number;
  /** JSON of FlowDefinition (form + nodes). */
  definition: string;
  created_at: string;
}

export interface WfInstanceTable {
  work_id: Generated<number>;
  template_id: string;
  flow_no: string;
  flow_name: string;
  title: string;
  starter_id: string;
  starter_name: string;
  dept_id: string | null;
  dept_name: string;
  state: number;
  node_id: string;
  node_name: string;
  /** Names of the open handlers, for lists. */
  handler_names: string;
  form_data: string;
  record_type: string | null;
  record_id: string | null;
  created_at: string;
  started_at: string | null;
  updated_at: string;
  finished_at: string | null;
}

export interface WfWorkItemTable {
  id: string;
  work_id: number;
  node_id: string;
  node_name: string;
  handler_id: string;
  handler_name: string;
  dept_name: string;
  /** WorkItemState. */
  state: number;
  opinion: string;
  pressed_at: string | null;
  created_at: string;
  done_at: string | null;
}

export interface WfTrackTable {
  id: string;
  work_id: number;
  seq: number;
  action: string;
  node_id: string;
  node_name: string;
  actor_id: string | null;
  actor_name: string;
  dept_name: string;
  opinion: string;
  to_node_id: string | null;
  to_node_name: string;
  to_names: string;
  created_at: string;
}

export interface WfCcTable {
  id: string;
  work_id: number;
  user_id: string;
  user_name: string;
  from_name: string;
  is_read: number;
  created_at: string;
}

export interface WfNoticeTable {
  id: string;
  title: string;
  column_name: string;
  content: string;
  /** 1 published, 0 withdrawn or not yet published. */
  state: number;
  publisher_id: string | null;
  publisher_name: string;
  published_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface WfUserSettingTable {
  user_id: string;
  default_opinion: string;
  updated_at: string;
}

export interface WfAttachmentTable {
  id: string;
  sha256: string;
  name: string;
  mime: string;
  size: number;
  uploader_id: string;
  work_id: number | null;
  /** The file as base64: in the database, so every app server on one PostgreSQL can serve it. */
  content: string;
  created_at: string;
}

export type WorkflowTables = {
  wf_templates: WfTemplateTable;
  wf_instances: WfInstanceTable;
  wf_work_items: WfWorkItemTable;
  wf_tracks: WfTrackTable;
  wf_cc: WfCcTable;
  wf_notices: WfNoticeTable;
  wf_user_settings: WfUserSettingTable;
  wf_attachments: WfAttachmentTable;
};

export type WfDb = Kysely<Database & WorkflowTables>;

/** The platform's database (or a transaction on it) with the workflow tables. */
export const wf = (db: Kysely<Database>): WfDb => db.withTables<WorkflowTables>();

/** The same database seen with the platform's tables only (for the operation log and other areas). */
export const platformDb = (db: WfDb): Kysely<Database> => db as unknown as Kysely<Database>;
