/**
 * 票池发票详情 (/income/invoicePool/detail/:id): the face, its abnormal flags, lines, files, verification
 * and signing, the documents that use it, and its history. A malformed or unknown id: RecordNotFound.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Skeleton, Space } from 'antd';
import { useNavigate } from 'react-router';
import { IncomeAbnormalFlag, IncomeBookingState, IncomeSource } from '@zhyy/shared';
import { incomeApi } from '../../api/income';
import { formatTime } from '../../components/download';
import { RecordNotFound, isRecordId } from '../../components/RecordNotFound';
import { useView } from '../../router/view';
import { Money } from '../common/Money';
import { PoolFiles, PoolHistory, PoolLines, PoolUses, PoolVerifySign } from './PoolDetailSections';
import { PoolVerifyButton } from './PoolVerify';
import { AbnormalFlags, IncomeKindTag, orderedFlags, InvoiceStateTag, RiskTag, UsageTag, useText } from './widgets';
import { POOL_KEY, POOL_LIST, poolNumber } from './request';
import '../invoice/ledger/ledger.css';

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
  const flags = orderedFlags(d.abnormalFlags).map((f) => IncomeAbnormalFlag.label(f));
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="pool-detail">
      <Card
        title={<Space wrap>{poolNumber(d) || '—'}<IncomeKindTag kind={d.kind} /><InvoiceStateTag state={d.invoiceState} /><AbnormalFlags flags={d.abnormalFlags} /></Space>}
        extra={<Space><PoolVerifyButton id={d.id} /><Button onClick={() => navigate(POOL_LIST)}>返回票池</Button></Space>}
      >
        {flags.length ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={`该发票存在异常：${flags.join('、')}`} data-testid="pool-detail-abnormal" /> : null}
        <Descriptions
          size="small" column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'code', label: '发票代码', children: d.invoiceCode || '—' },
            { key: 'no', label: '发票号码', children: d.invoiceNo || '—' },
            { key: 'dn', label: '数电号码', children: d.digitalNo || '—' },
            { key: 'date', label: '开票日期', children: d.issueDate },
            { key: 'seller', label: '销方名称', children: d.sellerName },
            { key: 'stax', label: '销方税号', children: d.sellerTaxNo || '—' },
            { key: 'buyer', label: '购方名称', children: d.buyerName },
            { key: 'btax', label: '购方税号', children: d.buyerTaxNo || '—' },
            { key: 'check', label: '校验码', children: d.checkCode || '—' },
            { key: 'ex', label: '金额', children: <Money fen={d.amountExcl} /> },
            { key: 'tax', label: '税额', children: <Money fen={d.tax} /> },
            { key: 'in', label: '价税合计', children: <Money fen={d.amountIncl} strong /> },
            { key: 'risk', label: '风险等级', children: <RiskTag level={d.riskLevel} /> },
            { key: 'book', label: '入账状态', children: IncomeBookingState.has(d.bookingState) ? IncomeBookingState.label(d.bookingState) : '—' },
            { key: 'archive', label: '档案号', children: d.archiveNo || '—' },
            { key: 'usage', label: '使用状态', children: <Space size={4}><UsageTag usage={d.usage} />{useText(d)}</Space> },
            { key: 'src', label: '来源', children: IncomeSource.has(d.source) ? IncomeSource.label(d.source) : '—' },
            { key: 'at', label: '进入票池', children: formatTime(d.createdAt) },
            { key: 'remark', label: '备注', children: d.remark || '—' },
          ]}
        />
      </Card>
      <PoolLines d={d} />
      <PoolFiles d={d} />
      <PoolVerifySign d={d} />
      <PoolUses d={d} />
      <PoolHistory d={d} />
    </Space>
  );
}
