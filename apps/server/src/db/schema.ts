/**
 * Table types. Conventions (docs/database.md): ids are UUID text; timestamps are ISO-8601 UTC text
 * (sortable and comparable as strings on both SQLite and PostgreSQL); booleans are integers 0/1;
 * money is integer 分.
 */

export interface DepartmentTable {
  id: string;
  parent_id: string | null;
  name: string;
  sort: number;
  manager_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserTable {
  id: string;
  login_name: string;
  name: string;
  dept_id: string | null;
  position: string;
  phone: string;
  email: string;
  password_hash: string;
  /** 1 while the password is an initial one set by an administrator (50010 until changed). */
  password_is_initial: number;
  /** 1 active, 0 disabled. */
  status: number;
  failed_count: number;
  failed_since: string | null;
  locked_until: string | null;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface UserRoleTable {
  user_id: string;
  role: string;
}

export interface SessionTable {
  id: string;
  /** sha256 of the opaque token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  ip: string;
  user_agent: string;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface OperationLogTable {
  id: string;
  user_id: string | null;
  login_name: string;
  user_name: string;
  type: number;
  description: string;
  ip: string;
  /** The record the operation concerns, when it concerns one (e.g. 'invoice' and its id). */
  record_kind?: string | null;
  record_id?: string | null;
  /** 1: reported by the client (/syslog/add-operation-log), not recorded by the server itself. */
  client_reported?: number;
  created_at: string;
}

export interface SyncLogTable {
  id: string;
  system: number;
  type: string;
  /** 0 success, 1 failure (SPEC section 3), 2 pending: written before the outside call, completed after it. */
  status: number;
  memo: string;
  request: string | null;
  response: string | null;
  duration_ms: number | null;
  user_id: string | null;
  /** 1: reported by the client (/syslog/add-integrated-synclog), not an exchange the server made. */
  client_reported?: number;
  created_at: string;
}

/** Business keys of a sync log row (order number, serial number, bill id…), for filtering by record. */
export interface SyncLogRefTable {
  sync_log_id: string;
  ref: string;
}

/** The sister systems' simulator: pending items per login name (OA and project management). */
export interface SisterTodoTable {
  id: string;
  system: string;
  login_name: string;
  title: string;
  done: number;
  created_at: string;
}

export interface AppMetaTable {
  key: string;
  value: string;
}

/** A request limit's count in its current window (platform/rate-limit.ts). */
export interface RateLimitTable {
  name: string;
  key: string;
  n: number;
  window_ends_at: string;
}

/** Who runs a background job now (platform/leases.ts): one row per job, until it expires. */
export interface JobLeaseTable {
  name: string;
  holder: string;
  acquired_at: string;
  expires_at: string;
}

export interface Database {
  departments: DepartmentTable;
  users: UserTable;
  user_roles: UserRoleTable;
  sessions: SessionTable;
  operation_logs: OperationLogTable;
  sync_logs: SyncLogTable;
  sync_log_refs: SyncLogRefTable;
  sister_todos: SisterTodoTable;
  app_meta: AppMetaTable;
  rate_limits: RateLimitTable;
  job_leases: JobLeaseTable;
}
