/**
 * The accounting/archive side (财务系统 i8, 会计档案): what signing an incoming invoice asks it. The
 * income module talks only to `ArchiveGateway`; the simulator (default) and the HTTP client stand
 * behind it (index.ts picks one from the environment).
 */
import { AppError } from '../../platform/envelope.js';
import { ResponseCode } from '@zhyy/shared';

export interface ArchiveRequest {
  /**
   * The signing record's id: one per attempt, the filing's identity. The archive side keeps it with the
   * filing (the same id filed twice is one filing) and answers `query` by it.
   */
  signingId: string;
  /** The pool invoice's id and its key (数电 number, else code:number): the archive side's reference. */
  invoiceId: string;
  invoiceKey: string;
  invoiceNo: string;
  sellerName: string;
  sellerTaxNo: string;
  issueDate: string;
  /** 分 */
  amountIncl: number;
  docType: string;
  docNo: string;
  note: string;
}

export interface ArchiveAnswer {
  /** The archive side's own voucher / archive id. */
  voucherId: string;
}

export interface ArchiveRevokeRequest {
  invoiceKey: string;
  voucherId: string;
  archiveNo: string;
  reason: string;
}

/**
 * Is this signing's filing there (received and not withdrawn)? Asked when a signing was left unfinished
 * (签收中断: filed → signed) and when a withdrawal was (撤销中断: still filed → 已签收 again, not filed → revoked).
 */
export interface ArchiveQuery {
  signingId: string;
  /** For the archive side's own checks and the sync log. */
  invoiceKey: string;
  docNo: string;
}

/**
 * The answer to a query: filed (with the voucher id the filing got), not filed (the archive side has
 * no filing in force under that signing id: never received, or withdrawn), or unknown (the archive side cannot tell yet, e.g. still processing).
 * A failed exchange throws ArchiveError instead; the caller treats that as unknown too.
 */
export type ArchiveLookup = { status: 'filed'; voucherId: string } | { status: 'notFiled' } | { status: 'unknown'; message: string };

export interface ArchiveCallContext {
  userId?: string | null;
}

export interface ArchiveGateway {
  readonly mode: 'simulator' | 'http';
  /** Files the invoice against the document; throws ArchiveError when the archive side refuses. */
  archive(req: ArchiveRequest, ctx?: ArchiveCallContext): Promise<ArchiveAnswer>;
  /** Withdraws a filing (the signing is revoked). */
  revoke(req: ArchiveRevokeRequest, ctx?: ArchiveCallContext): Promise<void>;
  /** Whether the filing of a signing was received (by its signing id); throws ArchiveError when the exchange fails. */
  query(req: ArchiveQuery, ctx?: ArchiveCallContext): Promise<ArchiveLookup>;
}

/** A refusal or failed exchange with the archive side: the Chinese message is shown as the failure reason. */
export class ArchiveError extends AppError {
  constructor(
    message: string,
    readonly serviceCode: string,
    readonly response?: unknown,
    status = 400,
  ) {
    super(ResponseCode.businessError, message, status);
    this.name = 'ArchiveError';
  }
}

export interface ArchiveConfig {
  mode: 'simulator' | 'http';
  /** http: the archive service's base URL, credentials, timeout. */
  baseUrl?: string;
  appKey?: string;
  appSecret?: string;
  timeoutMs?: number;
  /** simulator: how long an answer takes (ms). */
  delayMs?: number;
}

/** Sync log types (system 2 财务系统) of the archive exchanges. */
export const ArchiveMethods = { archive: 'incomeArchive', revoke: 'incomeArchiveRevoke', query: 'incomeArchiveQuery' } as const;
