/** Pool rows for the screens' unit tests. */
import type { PoolDetail, PoolRow } from '@zhyy/shared';

export function poolRow(over: Partial<PoolRow> = {}): PoolRow {
  return {
    id: '0b7e5c1e-7c55-4a33-9f59-4c1b3e1f0a01', kind: '81', invoiceCode: '', invoiceNo: '', digitalNo: '26322000000012345678', issueDate: '2026-11-02',
    sellerName: '南京恒达建材有限公司', sellerTaxNo: '91320100MA1HDJC308', buyerName: '华建工程技术服务有限公司', buyerTaxNo: '91320000134567890Y',
    amountExcl: 100000, tax: 13000, amountIncl: 113000, checkCode: '', invoiceState: 0, riskLevel: '01', verifyState: 1, verifiedAt: '2026-11-03T02:00:00.000Z',
    signState: 1, archiveNo: '', bookingState: '01', source: 1, usage: 0, useKind: '', docNo: '', abnormalFlags: [], arrivals: 1, createdAt: '2026-11-02T03:00:00.000Z', blueInvoiceNo: '', statusCheckedAt: null, statusFound: null,
    ...over,
  };
}

export function poolDetail(over: Partial<PoolDetail> = {}): PoolDetail {
  return { ...poolRow(), remark: '', lines: [], files: [], history: [], uses: [], blue: null, reds: [], ...over };
}
