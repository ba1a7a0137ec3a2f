/** Answers of the outgoing-invoice calls (issue 6). Money in 分; times ISO UTC; decimals as text. */

export interface BuyerRow {
  id: string;
  name: string;
  taxNo: string;
  address: string;
  phone: string;
  bank: string;
  account: string;
  email: string;
  mobile: string;
  defaultKind: number;
  remark: string;
  invoiceCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface TaxCodeRow {
  code: string;
  name: string;
  shortName: string;
  taxRate: string;
  policy: number;
}

/** Settings as the browser sees them: the Nuonuo secret only as "set or not". */
export interface InvoiceSettingView {
  sellerName: string;
  sellerTaxNo: string;
  sellerAddress: string;
  sellerPhone: string;
  sellerBank: string;
  sellerAccount: string;
  clerk: string;
  payee: string;
  checker: string;
  defaultKind: number;
  gatewayMode: 'simulator' | 'nuonuo';
  appKey: string;
  appSecretSet: boolean;
  gatewayTaxNo: string;
  nuonuoUrl: string;
  simulatorDelayMs: number;
  simulatorFailureRate: number;
  taxCodes: TaxCodeRow[];
  updatedAt: string | null;
  updatedBy: string;
}

export interface ReferenceRow {
  id: string;
  code: string;
  name: string;
  customer: string;
  amount: number;
  source: number;
  projectId?: string | null;
}

export interface InvoiceRow {
  id: string;
  orderNo: string;
  serialNo: string;
  kind: number;
  colour: number;
  status: number;
  source: number;
  requestWorkId: number | null;
  buyerName: string;
  buyerTaxNo: string;
  projectName: string;
  contractName: string;
  amountExcl: number;
  tax: number;
  amountIncl: number;
  invoiceNo: string;
  digitalNo: string;
  issuedAt: string | null;
  failureCause: string;
  invalid: boolean;
  invalidReason: string;
  retryCount: number;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
}

export interface InvoiceLineRow {
  lineNo: number;
  goodsName: string;
  taxCode: string;
  spec: string;
  unit: string;
  quantity: string;
  unitPrice: string;
  priceIncludesTax: boolean;
  taxRate: string;
  policy: number;
  lineProperty: number;
  amountExcl: number;
  tax: number;
  amountIncl: number;
}

export interface InvoiceFileRow {
  id: string;
  type: number;
  format: string;
  name: string;
  size: number;
  createdAt: string;
}

export interface InvoiceDetail extends InvoiceRow {
  buyerId: string | null;
  buyerAddress: string;
  buyerPhone: string;
  buyerBank: string;
  buyerAccount: string;
  buyerEmail: string;
  buyerMobile: string;
  sellerName: string;
  sellerTaxNo: string;
  sellerAddress: string;
  sellerPhone: string;
  sellerBank: string;
  sellerAccount: string;
  projectId: string | null;
  contractId: string | null;
  specialFactor: number;
  constructionSite: string;
  constructionProject: string;
  remark: string;
  clerk: string;
  payee: string;
  checker: string;
  redReason: number | null;
  blueInvoiceId: string | null;
  blueInvoiceNo: string;
  capital: string;
  lines: InvoiceLineRow[];
  files: InvoiceFileRow[];
  reds: Array<{ id: string; invoiceNo: string; digitalNo: string; amountIncl: number; status: number; issuedAt: string | null }>;
  cancellations: Array<{ id: string; state: number; reason: string; message: string; userName: string; createdAt: string; finishedAt: string | null }>;
}

export interface IssueOutcome {
  id: string;
  orderNo: string;
  ok: boolean;
  message: string;
  /** Not refused: the tax service could not be reached, the request stays and is retried or refreshed later. */
  pending?: boolean;
}

export interface BatchAnswer {
  results: IssueOutcome[];
  succeeded: number;
  failed: number;
}

/** SPEC section 3: the nine sidebar counts of the invoice group (and the reimbursement and income badges). */
export interface BillingCancellationCounts {
  requestBillingCount: number;
  cancellationCount: number;
  requestDigitalElectricInvoiceCount: number;
  redConfirmApplyCount: number;
  redConfirmToConfirmCount: number;
  invoiceRetryCreationCount: number;
  reimbursementApplyCount: number;
  invoiceEntrySignCount: number;
  abnormalInvoicePoolCount: number;
}

export interface InvoiceSyncLogRow {
  id: string;
  type: string;
  status: number;
  memo: string;
  durationMs: number | null;
  userName: string;
  createdAt: string;
  invoiceId: string | null;
  orderNo: string;
}

export interface InvoiceSyncLogDetail extends InvoiceSyncLogRow {
  request: string | null;
  response: string | null;
}

export interface RedConfirmRow {
  id: number;
  billNo: string;
  direction: 'seller' | 'buyer';
  state: string;
  blueInvoiceId: string;
  blueInvoiceNo: string;
  blueDigitalNo: string;
  buyerName: string;
  redReason: number;
  vatUsage: number;
  amountExcl: number;
  tax: number;
  amountIncl: number;
  redInvoiceId: string | null;
  redInvoiceNo: string;
  message: string;
  createdByName: string;
  createdAt: string;
  updatedAt: string;
}

export interface RedConfirmDetail extends RedConfirmRow {
  lines: Array<InvoiceLineRow & { blueLineNo: number; blueAmountIncl: number }>;
  blueLines: InvoiceLineRow[];
  can: { save: boolean; apply: boolean; confirm: boolean; refuse: boolean; cancel: boolean };
}
