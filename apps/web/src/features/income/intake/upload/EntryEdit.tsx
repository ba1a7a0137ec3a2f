/**
 * 进项发票编辑 (/invoice-entry/edit/:id, roles 1, 13, 14, 16; issue 13). `new` (or the empty id): 上传发票 —
 * files recognised one by one, each corrected beside its file and saved to the pool — or 手工录入 of a paper
 * invoice with the same checks. `<uuid>`: that invoice's face, and files added to it through the same upload
 * (saved with its face, they merge into it). A malformed or unknown id: RecordNotFound.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Radio, Skeleton, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { EMPTY_ID, IncomeSource, type EntryDetail, type UploadRecognition } from '@zhyy/shared';
import { incomeUploadApi } from '../../../../api/incomeUpload';
import { RecordNotFound, isRecordId } from '../../../../components/RecordNotFound';
import { useView } from '../../../../router/view';
import { Money } from '../../../common/Money';
import { formOf } from '../EntryFormFields';
import { poolNumber } from '../../pool/request';
import { IncomeKindTag, InvoiceStateTag } from '../../pool/widgets';
import { ENTRY_LIST } from './links';
import { ManualEntry } from './ManualEntry';
import { UploadPanel } from './UploadPanel';

export const isNewEntry = (id: string | undefined) => !id || id === 'new' || id === EMPTY_ID;

export default function EntryEdit() {
  const { params } = useView();
  return isNewEntry(params.id) ? <NewEntry /> : <ExistingEntry id={params.id!} />;
}

function NewEntry() {
  const navigate = useNavigate();
  const [mode, setMode] = useState<'upload' | 'manual'>('upload');
  return (
    <Card data-testid="entry-edit" title="登记进项发票"
      extra={<Space>
        <Radio.Group optionType="button" buttonStyle="solid" value={mode} onChange={(e) => setMode(e.target.value as 'upload' | 'manual')} data-testid="entry-mode"
          options={[{ value: 'upload', label: '上传发票' }, { value: 'manual', label: '手工录入' }]} />
        <Button onClick={() => navigate(ENTRY_LIST)}>返回</Button>
      </Space>}>
      {/* Both stay mounted: switching does not lose files being recognised or a form half typed. */}
      <div hidden={mode !== 'upload'}><UploadPanel /></div>
      <div hidden={mode !== 'manual'}>
        <Typography.Paragraph type="secondary">纸质发票手工录入：按票面填写，保存前按与上传、采集相同的规则校验。</Typography.Paragraph>
        <ManualEntry />
      </div>
    </Card>
  );
}

/** The invoice's face as a recognised draft is (money in 分), for the cards' form. */
const draftOf = (d: EntryDetail): UploadRecognition['draft'] & { remark: string } => ({
  kind: d.kind as UploadRecognition['draft']['kind'], invoiceCode: d.invoiceCode, invoiceNo: d.invoiceNo, digitalNo: d.digitalNo, issueDate: d.issueDate,
  sellerName: d.sellerName, sellerTaxNo: d.sellerTaxNo, buyerName: d.buyerName, buyerTaxNo: d.buyerTaxNo, amountExcl: d.amountExcl, tax: d.tax, amountIncl: d.amountIncl,
  checkCode: d.checkCode, remark: d.remark, lines: d.lines.map((l) => ({ name: l.name, spec: l.spec, unit: l.unit, quantity: l.quantity, unitPrice: l.unitPrice, amount: l.amount, taxRate: l.taxRate, tax: l.tax })),
});

function ExistingEntry({ id }: { id: string }) {
  const navigate = useNavigate();
  const valid = isRecordId(id);
  const q = useQuery({ queryKey: ['income', 'entry', 'edit', id], queryFn: () => incomeUploadApi.detail(id), enabled: valid });
  const base = useMemo(() => (q.data ? formOf(draftOf(q.data)) : undefined), [q.data]);
  if (valid && q.isLoading) return <Card><Skeleton active /></Card>;
  const d = q.data;
  if (!d || !base) return <RecordNotFound what="发票" error={q.error} back={ENTRY_LIST} backLabel="返回进项发票登记" />;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="entry-edit">
      <Card title={<Space wrap>{poolNumber(d) || '—'}<IncomeKindTag kind={d.kind} /><InvoiceStateTag state={d.invoiceState} /></Space>}
        extra={<Button onClick={() => navigate(ENTRY_LIST)}>返回</Button>}>
        <Descriptions size="small" column={{ xs: 1, md: 2, xl: 3 }} data-testid="entry-face"
          items={[
            { key: 'code', label: '发票代码', children: d.invoiceCode || '—' },
            { key: 'no', label: '发票号码', children: d.invoiceNo || '—' },
            { key: 'dn', label: '数电号码', children: d.digitalNo || '—' },
            { key: 'date', label: '开票日期', children: d.issueDate },
            { key: 'seller', label: '销方名称', children: d.sellerName },
            { key: 'buyer', label: '购方名称', children: d.buyerName },
            { key: 'ex', label: '金额', children: <Money fen={d.amountExcl} /> },
            { key: 'tax', label: '税额', children: <Money fen={d.tax} /> },
            { key: 'in', label: '价税合计', children: <Money fen={d.amountIncl} strong /> },
            { key: 'src', label: '来源', children: IncomeSource.has(d.source) ? IncomeSource.label(d.source) : '—' },
            { key: 'files', label: '文件', children: d.files.length ? d.files.map((f) => f.name).join('、') : '无' },
          ]} />
      </Card>
      <Card title="为该发票补充文件">
        <UploadPanel base={base} hint="上传该发票的PDF、OFD、XML或图片；核对后保存，文件将合并到该发票（识别内容与票面不同的字段会标出）" />
      </Card>
    </Space>
  );
}
