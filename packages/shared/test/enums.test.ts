import { describe, expect, it } from 'vitest';
import {
  AttachmentType,
  ContractType,
  EMPTY_ID,
  EntrySignState,
  InvoiceColour,
  InvoiceKind,
  InvoiceStatus,
  OperationLogType,
  RedConfirmAction,
  ReimbursementState,
  ROLES,
  ROLE_CODES,
  SourceKind,
  SyncLogStatus,
  SyncSystem,
  isSuperUser,
  roleName,
} from '../src/index.js';

describe('SPEC section 3: enumerations', () => {
  it('invoice colour and status', () => {
    expect([InvoiceColour.blue, InvoiceColour.red]).toEqual([1, 2]);
    expect({ ...pick(InvoiceStatus) }).toEqual({ none: 0, created: 2, creating: 20, signing: 21, creationFailed: 22, signFailed: 24, cancelled: 3, canceling: 31 });
    expect(InvoiceStatus.label(22)).toBe('开票失败');
  });
  it('party type, contract type, source kind, red confirm action', () => {
    expect(pick(InvoiceKind)).toEqual({ c: 1, s: 2, bs: 9, pc: 10 });
    expect(pick(ContractType)).toEqual({ frame: 1, single: 2, order: 3 });
    expect(pick(SourceKind)).toEqual({ temp: 0, history: 1, i8: 2, mis: 3 });
    expect(pick(RedConfirmAction)).toEqual({ apply: 1, cancel: 2, confirm: 3 });
  });
  it('reimbursement and entry sign states', () => {
    expect(pick(ReimbursementState)).toEqual({ applying: -1, unReimburse: 0, reimbursedSuccess: 1, reimbursedFailed: 2 });
    expect(pick(EntrySignState)).toEqual({ applying: -1, unSign: 0, signSuccess: 1, signFailed: 2 });
  });
  it('attachment types and the empty id', () => {
    expect(AttachmentType.invoicePaperPdf).toBe(1000);
    expect(AttachmentType.invoiceScanning).toBe(1010);
    expect(AttachmentType.label(1010)).toBe('发票扫描页');
    expect(AttachmentType.label(1011)).toBe('发票查询截图');
    expect(AttachmentType.values.filter((v) => v >= 2111 && v <= 2115)).toHaveLength(5);
    expect(AttachmentType.values.filter((v) => v >= 2211 && v <= 2215)).toHaveLength(5);
    expect(AttachmentType.label(2310)).toBe('订单页');
    expect(AttachmentType.label(2900)).toBe('审定单');
    expect(AttachmentType.label(2901)).toBe('验收证书');
    expect(EMPTY_ID).toBe('00000000-0000-0000-0000-000000000000');
  });
  it('operation log types', () => {
    expect(pick(OperationLogType)).toEqual({ login: 1, logout: 2, view: 30, add: 40, edit: 50, delete: 60, import: 70, upload: 73, download: 74, print: 75, export: 80, fail: 90 });
    expect(OperationLogType.label(80)).toBe('导出');
  });
  it('sync log: status 1 is failure, system code 3', () => {
    expect(SyncLogStatus.failure).toBe(1);
    expect(SyncSystem.platform).toBe(3);
  });
});

describe('SPEC section 6: roles', () => {
  it('catalogue has every role of the table', () => {
    // The spec's 21 roles, and 2 普通员工 (issue 31: staff who hold no other role open the pages every
    // signed-in user has, 工作台 and 我的报销; docs/permissions.md).
    expect([...ROLE_CODES].sort((a, b) => +a - +b)).toEqual(['1', '2', '3', '4', '5', '6', '7', '8', '9', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20', '21', '22', '23']);
    expect(ROLES).toHaveLength(22);
    expect(roleName('2')).toBe('普通员工');
    expect(roleName('13')).toBe('进项票池与抵扣');
  });
  it('admin and role 1 are super users', () => {
    expect(isSuperUser(['admin'])).toBe(true);
    expect(isSuperUser(['1'])).toBe(true);
    expect(isSuperUser(['3', '5'])).toBe(false);
  });
});

function pick(e: { options: ReadonlyArray<{ key: string; value: unknown }> }) {
  return Object.fromEntries(e.options.map((o) => [o.key, o.value]));
}
