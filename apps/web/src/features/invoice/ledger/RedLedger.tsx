/** 数电红字确认单台账: every red-letter confirmation with its state and the red invoice it produced; export. */
import { DatePicker, Form, Input, Select, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { Link } from 'react-router';
import { RedConfirmState, RedReason, type RedConfirmRow } from '@zhyy/shared';
import { ledgerApi } from '../../../api/invoiceLedger';
import { formatTime } from '../../../components/download';
import { shanghaiDayStart } from '../../../utils/time';
import { ListPage } from '../../../components/ListPage';
import { Money, RedStateTag } from '../widgets';
import { detailPath, LEDGER_KEY, redDetailPath } from './request';

const columns: TableColumnsType<RedConfirmRow> = [
  { title: '确认单编号', key: 'billNo', width: 190, render: (_, r) => <Link to={redDetailPath(r.id)}>{r.billNo || `确认单 #${r.id}`}</Link> },
  { title: '录入方', key: 'direction', width: 80, render: (_, r) => (r.direction === 'seller' ? '销方' : '购方') },
  { title: '状态', key: 'state', dataIndex: 'state', width: 170, sorter: true, render: (_, r) => <RedStateTag state={r.state} /> },
  { title: '蓝字发票', key: 'blue', width: 200, render: (_, r) => (r.blueInvoiceId ? <Link to={detailPath(r.blueInvoiceId)}>{r.blueInvoiceNo}</Link> : r.blueInvoiceNo) },
  { title: '购方名称', dataIndex: 'buyerName', key: 'buyerName', ellipsis: true, width: 220 },
  { title: '红冲原因', key: 'reason', width: 100, render: (_, r) => RedReason.label(r.redReason) },
  { title: '价税合计', key: 'amountIncl', dataIndex: 'amountIncl', width: 130, align: 'right', sorter: true, render: (_, r) => <Money fen={r.amountIncl} /> },
  { title: '红字发票', key: 'red', width: 200, render: (_, r) => (r.redInvoiceId ? <Link to={detailPath(r.redInvoiceId)}>{r.redInvoiceNo || '开具中'}</Link> : '—') },
  { title: '更新时间', key: 'updatedAt', dataIndex: 'updatedAt', width: 170, sorter: true, render: (_, r) => formatTime(r.updatedAt) },
];

type Values = { state?: string; direction?: string; keyword?: string; created?: [Dayjs | null, Dayjs | null] | null };
const toRequest = (v: Record<string, unknown>) => {
  const { created, ...rest } = v as Values;
  const [a, b] = created ?? [null, null];
  return { ...rest, from: a ? shanghaiDayStart(a) : undefined, to: b ? shanghaiDayStart(b.add(1, 'day')) : undefined };
};

export default function RedLedger() {
  return (
    <ListPage<RedConfirmRow>
      testId="red-ledger"
      queryKey={[...LEDGER_KEY, 'red']}
      fetch={ledgerApi.redLedger}
      columns={columns}
      rowKey={(r) => String(r.id)}
      scrollX={1440}
      toRequest={toRequest}
      emptyText="没有红字确认单"
      export={{ fileName: '数电红字确认单台账', run: (f) => ledgerApi.exportRedLedger(f) }}
      filters={
        <>
          <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="购方/蓝字发票号码/确认单编号" maxLength={100} style={{ width: 240 }} /></Form.Item>
          <Form.Item name="state" label="状态"><Select allowClear placeholder="全部" style={{ width: 200 }} options={RedConfirmState.options.map((o) => ({ value: o.value, label: o.label }))} /></Form.Item>
          <Form.Item name="direction" label="录入方"><Select allowClear placeholder="全部" style={{ width: 100 }} options={[{ value: 'seller', label: '销方' }, { value: 'buyer', label: '购方' }]} /></Form.Item>
          <Form.Item name="created" label="申请日期"><DatePicker.RangePicker allowEmpty={[true, true]} /></Form.Item>
        </>
      }
    />
  );
}
