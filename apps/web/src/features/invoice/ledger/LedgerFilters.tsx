/** The filter bar of 销项发票台账: the common filters in one row, the rest behind 更多筛选. */
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Select } from 'antd';
import { AmountRangeItem } from '../../../components/AmountRangeItem';
import { useState } from 'react';
import { InvoiceColour, InvoiceKind, InvoiceStatus, SourceKind } from '@zhyy/shared';
import { ledgerApi } from '../../../api/invoiceLedger';
import { BuyerPicker } from './BuyerPicker';
import { LEDGER_KEY } from './request';

const LEDGER_STATUSES = [InvoiceStatus.created, InvoiceStatus.canceling, InvoiceStatus.cancelled];
const opts = <V,>(items: ReadonlyArray<{ value: V; label: string }>) => items.map((o) => ({ value: o.value, label: o.label }));

export function LedgerFilters() {
  const [more, setMore] = useState(false);
  const options = useQuery({ queryKey: [...LEDGER_KEY, 'options'], queryFn: ledgerApi.options, staleTime: 300_000 });
  const pick = (rows: Array<{ id: string; code: string; name: string }> | undefined) => (rows ?? []).map((r) => ({ value: r.id, label: `${r.code} ${r.name}` }));
  return (
    <>
      <Form.Item name="issued" label="开票日期">
        <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="buyerId" label="购方">
        <BuyerPicker />
      </Form.Item>
      <Form.Item name="number" label="号码">
        <Input allowClear placeholder="发票号码/数电号码/订单号" maxLength={40} style={{ width: 210 }} />
      </Form.Item>
      <Form.Item name="status" label="状态">
        <Select allowClear placeholder="全部" style={{ width: 110 }} options={LEDGER_STATUSES.map((v) => ({ value: v, label: InvoiceStatus.label(v) }))} />
      </Form.Item>
      <Form.Item name="colour" label="颜色">
        <Select allowClear placeholder="全部" style={{ width: 90 }} options={opts(InvoiceColour.options)} />
      </Form.Item>
      {more ? (
        <>
          <Form.Item name="buyerName" label="购方名称">
            <Input allowClear placeholder="包含即可" maxLength={100} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="kind" label="种类">
            <Select allowClear placeholder="全部" style={{ width: 200 }} options={opts(InvoiceKind.options)} />
          </Form.Item>
          <Form.Item name="source" label="来源">
            <Select allowClear placeholder="全部" style={{ width: 100 }} options={opts(SourceKind.options)} />
          </Form.Item>
          <Form.Item name="projectId" label="项目">
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} placeholder="全部项目" loading={options.isLoading} style={{ width: 260 }} options={pick(options.data?.projects)} />
          </Form.Item>
          <Form.Item name="contractId" label="合同">
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} placeholder="全部合同" loading={options.isLoading} style={{ width: 260 }} options={pick(options.data?.contracts)} />
          </Form.Item>
          <AmountRangeItem />
          <Form.Item name="creator" label="创建人">
            <Input allowClear placeholder="姓名" maxLength={40} style={{ width: 120 }} />
          </Form.Item>
        </>
      ) : null}
      <Form.Item>
        <Button type="link" onClick={() => setMore(!more)} icon={more ? <UpOutlined /> : <DownOutlined />} data-testid="ledger-more-filters">
          {more ? '收起' : '更多筛选'}
        </Button>
      </Form.Item>
    </>
  );
}
