/**
 * 异常票池's pool view (the 异常票池 tab of /income/invoicePool/abnormal): the invoices carrying an abnormal flag, with their count
 * (abnormalInvoicePoolCount, the same figure as the sidebar badge and role 13's reminder).
 */
import { useQuery } from '@tanstack/react-query';
import { Alert } from 'antd';
import { IncomeAbnormalFlag } from '@zhyy/shared';
import { incomeApi } from '../../../api/income';
import { PoolTable } from '../pool/PoolTable';
import { POOL_KEY } from '../pool/request';

export default function PoolAbnormal() {
  const count = useQuery({ queryKey: [...POOL_KEY, 'abnormal-count'], queryFn: incomeApi.abnormalCount });
  const n = count.data?.abnormalInvoicePoolCount;
  const header = (
    <Alert
      type={n ? 'warning' : 'success'} showIcon style={{ marginBottom: 12 }} data-testid="abnormal-count"
      title={n === undefined ? '正在统计异常发票…' : n ? `待处理的异常发票 ${n} 张` : '没有待处理的异常发票'}
      description={`异常类型：${IncomeAbnormalFlag.options.map((o) => o.label).join('、')}`}
    />
  );
  return <PoolTable scope="abnormal" testId="income-pool-abnormal" fileName="异常票池" emptyText="没有符合条件的异常发票" header={header} />;
}
