/** /reimbursement/detail/:id (roles 1, 12, 16): the bill as read, with its accounting history. */
import { useQuery } from '@tanstack/react-query';
import { Result, Skeleton } from 'antd';
import { useParams } from 'react-router';
import { reimbApi } from '../../../api/reimbursement';
import { BillView } from './BillView';
import { REIMB_KEY } from './common';

export default function LedgerBillPage() {
  const { id = '' } = useParams();
  const q = useQuery({ queryKey: [...REIMB_KEY, 'ledger-bill', id], queryFn: () => reimbApi.detail(id), retry: false });
  if (q.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (q.isError) return <Result status="warning" title="无法打开该报销单" subTitle={(q.error as Error).message} />;
  return <BillView b={q.data} showPushes />;
}
