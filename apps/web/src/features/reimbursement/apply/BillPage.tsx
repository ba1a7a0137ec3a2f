/** /my/reimbursement/detail/:id — `new` opens the editor; a 草稿 / 已退回 bill of mine the editor; any other the read view. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Popconfirm, Result, Skeleton } from 'antd';
import { useParams } from 'react-router';
import { reimbApi } from '../../../api/reimbursement';
import { feedback } from '../../../ui/feedback';
import { BillEditor } from './BillEditor';
import { BillView } from './BillView';
import { REIMB_KEY } from './common';

export default function BillPage() {
  const { id = 'new' } = useParams();
  const qc = useQueryClient();
  const isNew = id === 'new';
  const q = useQuery({ queryKey: [...REIMB_KEY, 'bill', id], queryFn: () => reimbApi.get(id), enabled: !isNew, retry: false });
  if (isNew) return <BillEditor key="new" />;
  if (q.isPending) return <Skeleton active paragraph={{ rows: 10 }} />;
  if (q.isError) return <Result status="warning" title="无法打开该报销单" subTitle={(q.error as Error).message} />;
  const b = q.data;
  if (b.can.edit) return <BillEditor key={`${b.id}-${q.dataUpdatedAt}`} bill={b} />;
  const withdraw = async () => {
    const a = await reimbApi.withdraw(b.id);
    if (a.code !== 20000) return void feedback().message.error(a.message ?? '撤回失败');
    void feedback().message.success(a.message ?? '已撤回');
    await qc.invalidateQueries({ queryKey: REIMB_KEY });
  };
  return (
    <BillView
      b={b}
      actions={
        b.can.withdraw ? (
          <Popconfirm title="撤回该报销单？审批人尚未处理时可以撤回，撤回后回到草稿，发票释放" onConfirm={() => void withdraw()}>
            <Button data-testid="withdraw-bill">撤回</Button>
          </Popconfirm>
        ) : null
      }
    />
  );
}
