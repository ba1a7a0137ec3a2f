/**
 * 同步日志 (/reimbursement/nuonuo/synclog-details, roles 1, 12): every exchange of 报销 with the accounting
 * system — voucher pushes, voucher and period look-ups, the simulator's deletions (not 签收's nor 进项转出's) —
 * by bill number, method (its Chinese name), status and time; bodies readable (issue 31 #9).
 */
import type { TableColumnsType } from 'antd';
import { reimbSyncMethodName, type ReimbSyncLogDetail, type ReimbSyncLogRow } from '@zhyy/shared';
import { reimbAccountingApi } from '../../../api/reimbursementAccounting';
import { SyncExchangeLog } from '../../common/SyncExchangeLog';
import { REIMB_ACCOUNTING_KEY } from './common';

const refColumn: TableColumnsType<ReimbSyncLogRow> = [{ title: '报销单号 / 期间', dataIndex: 'refs', width: 200, render: (v: string[]) => v.join('、') || '—' }];

export default function ReimbSyncLogPage() {
  return (
    <SyncExchangeLog<ReimbSyncLogRow, ReimbSyncLogDetail>
      testId="reimb-synclog"
      queryKey={[...REIMB_ACCOUNTING_KEY, 'synclog']}
      fetch={reimbAccountingApi.syncLogs}
      fetchDetail={reimbAccountingApi.syncLogDetail}
      keyFilter={{ name: 'billNo', label: '报销单号', placeholder: 'BX…' }}
      methodPlaceholder="如 推送凭证"
      methodLabel={reimbSyncMethodName}
      detailKey={{ label: '报销单号 / 期间', value: (d) => d.refs.join('、') }}
      extraColumns={refColumn}
      requestTestId="reimb-sync-request"
    />
  );
}
