/**
 * 票池发票详情 (/income/invoicePool/detail/:id): the face, its abnormal flags, lines, files, verification
 * and signing, its booking flag (入账标识), the documents that use it, and its history. A malformed or unknown id: RecordNotFound.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Skeleton, Space } from 'antd';
import { useNavigate } from 'react-router';
import { incomeApi } from '../../../api/income';
import { RecordNotFound, isRecordId } from '../../../components/RecordNotFound';
import { useView } from '../../../router/view';
import { PoolBooking } from '../booking/PoolBooking';
import { PoolFace, PoolFiles, PoolHistory, PoolLines, PoolUses, PoolVerifySign } from './PoolDetailSections';
import { PoolVerifyButton } from '../intake/PoolVerify';
import { CaseHistory } from '../abnormal/CaseHistory';
import { RecheckButton } from '../abnormal/RecheckButton';
import { POOL_KEY, POOL_LIST } from './request';
import '../../common/ledger.css';

export default function PoolDetail() {
  const { params } = useView();
  const id = params.id ?? '';
  const navigate = useNavigate();
  const valid = isRecordId(id);
  // A malformed id is not sent; the record loads silently (the page says what went wrong) and once.
  const q = useQuery({ queryKey: [...POOL_KEY, 'detail', id], queryFn: () => incomeApi.detail(id, { silent: true }), enabled: valid });
  if (q.isLoading) return <Card><Skeleton active /></Card>;
  const d = q.data;
  if (!d) return <RecordNotFound what="发票" error={q.error} back={POOL_LIST} backLabel="返回票池" />;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="pool-detail">
      <PoolFace d={d} extra={<Space><PoolVerifyButton id={d.id} /><RecheckButton invoiceId={d.id} /><Button onClick={() => navigate(POOL_LIST)}>返回票池</Button></Space>} />
      <PoolLines d={d} />
      <PoolFiles d={d} />
      <PoolVerifySign d={d} />
      <PoolBooking invoiceId={d.id} />
      <PoolUses d={d} />
      {d.abnormalFlags.length ? <CaseHistory invoiceId={d.id} /> : null}
      <PoolHistory d={d} />
    </Space>
  );
}
