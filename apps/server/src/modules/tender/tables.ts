/**
 * Projects and contracts (migration 0004, created for invoicing as reference tables; owned by the tender
 * area since issue 17, which extends them in 0036_tender_contracts with nullable or defaulted columns
 * only, so every insert invoicing, its seed and the cost seed make still works). Money is BIGINT 分,
 * days 'YYYY-MM-DD', times ISO UTC text. Re-exported by modules/invoice/tables.ts.
 */
import type { ColumnType } from 'kysely';
import '../../db/schema.js';

/** A column the insert may leave out (the database's default or null). */
type Defaulted<T> = ColumnType<T, T | undefined, T>;

interface ReferenceRow {
  id: string;
  code: string;
  name: string;
  customer: string;
  amount: number;
  /** SourceKind: temp 0, history 1, i8 2, mis 3. */
  source: number;
  is_temp: number;
  created_at: string;
  updated_at: string;
}

export interface ProjectTable extends ReferenceRow {
  /** 0036: 项目地点. */
  location: Defaulted<string>;
  start_date: Defaulted<string | null>;
  end_date: Defaulted<string | null>;
  /** 0036: ProjectState (1 在建, 2 停工, 3 完工); default 1. */
  state: Defaulted<number>;
  /** 0036: the project manager (users.id). */
  manager_id: Defaulted<string | null>;
  /** 0036: 1 when the manager is a registered constructor (注册建造师): one active project each. */
  manager_registered: Defaulted<number>;
  updated_by: Defaulted<string>;
  /** 0043: the manager exception this project's hold of its manager rests on (left out of the partial unique index). */
  manager_exception_id: Defaulted<string | null>;
}

/** 0043: a lawful exception to the registered-manager rule (注册建造师执业管理办法（试行）第九条). */
export interface TenderManagerExceptionTable {
  id: string;
  manager_id: string;
  project_id: string;
  other_project_id: string;
  /** ManagerExceptionGround. */
  ground: number;
  valid_from: string;
  valid_to: string | null;
  stop_date: string | null;
  remark: Defaulted<string>;
  created_by: Defaulted<string>;
  created_at: string;
  updated_by: Defaulted<string>;
  updated_at: string;
  /** 0044: why it ended by itself (its ground no longer holds); '' while it runs. */
  end_reason: Defaulted<string>;
  /** 0044: the end day (valid_to) the manager was last reminded of. */
  reminded_for: Defaulted<string | null>;
}

declare module '../../db/schema.js' {
  interface Database {
    tender_manager_exceptions: TenderManagerExceptionTable;
  }
}

export interface ContractTable extends ReferenceRow {
  project_id: string | null;
  /** ContractType: frame 1, single 2, order 3. */
  contract_type: number;
  /** 0036: an order's frame contract. */
  parent_id: Defaulted<string | null>;
  signed_on: Defaulted<string | null>;
  /** 0036: the construction period (工期). */
  work_from: Defaulted<string | null>;
  work_to: Defaulted<string | null>;
  /** 0036: 竣工验收. */
  accepted_on: Defaulted<string | null>;
  manager_id: Defaulted<string | null>;
  remark: Defaulted<string>;
  updated_by: Defaulted<string>;
}
