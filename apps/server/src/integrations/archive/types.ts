/**
 * The accounting/archive side (财务系统 i8, 会计档案): what signing an incoming invoice asks it. The
 * income module talks only to `ArchiveGateway`; the simulator (default) and the HTTP client stand
 * behind it (index.ts picks one from the environment).
 */
import { AppError } from '../../platform/envelope.js';
import { ResponseCode } from '@zhyy/shared';

export interface ArchiveRequest {
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

export interface ArchiveCallContext {
  userId?: string | null;
}

export interface ArchiveGateway {
  readonly mode: 'simulator' | 'http';
  /** Files the invoice against the document; throws ArchiveError when the archive side refuses. */
  archive(req: ArchiveRequest, ctx?: ArchiveCallContext): Promise<ArchiveAnswer>;
  /** Withdraws a filing (the signing is revoked). */
  revoke(req: ArchiveRevokeRequest, ctx?: ArchiveCallContext): Promise<void>;
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
export const ArchiveMethods = { archive: 'incomeArchive', revoke: 'incomeArchiveRevoke' } as const;
