/** 签收记录 (签收归档's second tab): every signing — applying, signed with its archive number, failed with the reason, revoked. */
import { DatePicker, Form, Input, Select, Tag, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { Link } from 'react-router';
import { IncomeSignDocType, IncomeSigningState, type SigningRow } from '@zhyy/shared';
import { ENTRY_EXPORTS, incomeEntryApi } from '../../../api/incomeEntry';
import { formatTime } from '../../../components/download';
import { ListPage } from '../../../components/ListPage';
import { ExportProgress } from '../../common/ExportProgress';
import { Money } from '../../common/Money';
import { ENTRY_KEY, entryDetailPath } from './request';

const STATE_COLOURS: Record<string, string> = { applying: 'processing', signed: 'success', failed: 'error', revoked: 'default' };
const known = (e: { has: (v: unknown) => boolean; label: (v: unknown) => string }, v: unknown) => (e.has(v) ? e.label(v) : String(v ?? '—'));

export const SigningStateTag = ({ state }: { state: string }) => <Tag color={STATE_COLOURS[state] ?? 'default'}>{known(IncomeSigningState, state)}</Tag>;
export const docTypeLabel = (t: string) => known(IncomeSignDocType, t);

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

/** The filter values → the SigningQuery fields (a day range to from/to). */
export function toSigningRequest(v: Record<string, unknown>): Record<string, unknown> {
  const days = v.days as [Dayjs | null, Dayjs | null] | null | undefined;
  return {
    state: v.state, docType: v.docType, docNo: trimmed(v.docNo), archiveNo: trimmed(v.archiveNo), number: trimmed(v.number),
    from: days?.[0]?.format('YYYY-MM-DD'), to: days?.[1]?.format('YYYY-MM-DD'),
  };
}

/** The columns of a signing record; the detail page shows them without the invoice's own. */
export function signingColumns(withInvoice: boolean): TableColumnsType<SigningRow> {
  const invoice: TableColumnsType<SigningRow> = withInvoice
    ? [
        { title: '发票号码', key: 'invoiceNo', width: 200, render: (_, r) => <Link to={entryDetailPath(r.invoiceId)} data-testid="signing-invoice">{r.invoiceNo || '—'}</Link> },
        { title: '销方名称', dataIndex: 'sellerName', key: 'sellerName', width: 200, ellipsis: true },
        { title: '价税合计', key: 'amountIncl', width: 150, align: 'right', render: (_, r) => <Money fen={r.amountIncl} /> },
      ]
    : [];
  return [
    { title: '签收时间', key: 'createdAt', width: 170, render: (_, r) => formatTime(r.createdAt) },
    ...invoice,
    { title: '单据类型', key: 'docType', width: 90, render: (_, r) => docTypeLabel(r.docType) },
    { title: '单据号', dataIndex: 'docNo', key: 'docNo', width: 180, ellipsis: true },
    { title: '状态', key: 'state', width: 100, render: (_, r) => <SigningStateTag state={r.state} /> },
    { title: '档案号', key: 'archiveNo', width: 150, render: (_, r) => (r.archiveNo ? <Typography.Text strong data-testid="signing-archive-no">{r.archiveNo}</Typography.Text> : '—') },
    { title: '失败原因', key: 'failReason', width: 240, render: (_, r) => (r.failReason ? <Typography.Text type="danger">{r.failReason}</Typography.Text> : '—') },
    { title: '说明', key: 'note', width: 160, ellipsis: true, render: (_, r) => r.note || '—' },
    { title: '签收人', dataIndex: 'userName', key: 'userName', width: 100 },
    { title: '完成时间', key: 'finishedAt', width: 170, render: (_, r) => formatTime(r.finishedAt) || '—' },
  ];
}

const opts = (items: ReadonlyArray<{ value: string; label: string }>) => items.map((o) => ({ value: o.value, label: o.label }));

export function SigningList() {
  return (
    <ListPage<SigningRow>
      queryKey={[...ENTRY_KEY, 'signings']}
      fetch={incomeEntryApi.signings}
      rowKey="id"
      columns={signingColumns(true)}
      toRequest={toSigningRequest}
      emptyText="没有签收记录"
      testId="entry-signings"
      exportWith={(body, total) => <ExportProgress path={ENTRY_EXPORTS.signings} body={body} rows={total} fileName="签收记录" disabled={!total} />}
      filters={
        <>
          <Form.Item name="state" label="状态">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={opts(IncomeSigningState.options)} />
          </Form.Item>
          <Form.Item name="docType" label="单据类型">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={opts(IncomeSignDocType.options)} />
          </Form.Item>
          <Form.Item name="docNo" label="单据号">
            <Input allowClear maxLength={40} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="archiveNo" label="档案号">
            <Input allowClear maxLength={40} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="number" label="发票号码">
            <Input allowClear placeholder="发票号码/数电号码" maxLength={40} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="days" label="签收日期">
            <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
          </Form.Item>
        </>
      }
    />
  );
}
