/**
 * 立即核查 on the pool detail (issue 32 item 2): asks the tax service for the invoice's 发票状态 and 风险等级 now
 * (the job does it twice a day); a change updates the invoice and opens its case. The answer (or the
 * refusal, e.g. 权限不足 for roles outside 异常处理) shows as a message; the detail and the worklist refresh.
 */
import { SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { feedback } from '../../../ui/feedback';
import { POOL_KEY } from '../pool/request';
import { ABNORMAL_KEY, abnormalApi } from './api';

export function RecheckButton({ invoiceId }: { invoiceId: string }) {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      const a = await abnormalApi.recheck(invoiceId);
      void feedback().message.success(a.message);
      void qc.invalidateQueries({ queryKey: POOL_KEY });
      void qc.invalidateQueries({ queryKey: ABNORMAL_KEY });
    } catch (e) {
      void feedback().message.error(e instanceof Error ? e.message : '发票状态核查失败，请稍后重试');
    } finally {
      setBusy(false);
    }
  };
  return <Button icon={<SyncOutlined />} loading={busy} onClick={() => void run()} data-testid="pool-recheck">立即核查</Button>;
}
