/**
 * The filter bar of the pool lists: the common filters (开票日期, 种类, 销方, 号码, 状态, 异常类型) in view,
 * every other field of the pool behind 更多筛选.
 */
import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Button, DatePicker, Form, Input, Select } from 'antd';
import { AmountRangeItem } from '../../../components/AmountRangeItem';
import { useState } from 'react';
import {
  IncomeAbnormalFlag, IncomeBookingState, IncomeInvoiceState, IncomeKind, IncomeRiskLevel, IncomeSignState, IncomeSource, IncomeUsage, IncomeVerifyState, OTHER_INCOME_KINDS,
  type IncomeKindCode,
} from '@zhyy/shared';
import type { PoolScope } from '../../../api/income';

const opts = <V,>(items: ReadonlyArray<{ value: V; label: string }>) => items.map((o) => ({ value: o.value, label: o.label }));

export function PoolFilters({ scope }: { scope: PoolScope }) {
  const [more, setMore] = useState(false);
  const kinds = scope === 'other' ? IncomeKind.options.filter((o) => OTHER_INCOME_KINDS.includes(o.value as IncomeKindCode)) : IncomeKind.options;
  return (
    <>
      <Form.Item name="issued" label="开票日期">
        <DatePicker.RangePicker allowEmpty={[true, true]} style={{ width: 240 }} />
      </Form.Item>
      <Form.Item name="kind" label="种类">
        <Select allowClear placeholder="全部" style={{ width: 210 }} popupMatchSelectWidth={260} options={opts(kinds)} />
      </Form.Item>
      <Form.Item name="sellerName" label="销方">
        <Input allowClear placeholder="销方名称，包含即可" maxLength={100} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="number" label="号码">
        <Input allowClear placeholder="发票号码/数电号码" maxLength={40} style={{ width: 180 }} />
      </Form.Item>
      <Form.Item name="invoiceState" label="状态">
        <Select allowClear placeholder="全部" style={{ width: 110 }} options={opts(IncomeInvoiceState.options)} />
      </Form.Item>
      <Form.Item name="abnormalFlag" label="异常类型">
        <Select allowClear placeholder="全部" style={{ width: 130 }} options={opts(IncomeAbnormalFlag.options)} />
      </Form.Item>
      {more ? (
        <>
          <Form.Item name="invoiceCode" label="发票代码">
            <Input allowClear maxLength={20} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="sellerTaxNo" label="销方税号">
            <Input allowClear maxLength={20} style={{ width: 190 }} />
          </Form.Item>
          <Form.Item name="buyerName" label="购方名称">
            <Input allowClear placeholder="包含即可" maxLength={100} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="buyerTaxNo" label="购方税号">
            <Input allowClear maxLength={20} style={{ width: 190 }} />
          </Form.Item>
          <AmountRangeItem />
          <Form.Item name="riskLevel" label="风险等级">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={opts(IncomeRiskLevel.options)} />
          </Form.Item>
          <Form.Item name="verifyState" label="查验状态">
            <Select allowClear placeholder="全部" style={{ width: 120 }} options={opts(IncomeVerifyState.options)} />
          </Form.Item>
          <Form.Item name="signState" label="签收状态">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={opts(IncomeSignState.options)} />
          </Form.Item>
          <Form.Item name="bookingState" label="入账状态">
            <Select allowClear placeholder="全部" style={{ width: 200 }} popupMatchSelectWidth={260} options={opts(IncomeBookingState.options)} />
          </Form.Item>
          <Form.Item name="source" label="来源">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={opts(IncomeSource.options)} />
          </Form.Item>
          <Form.Item name="usage" label="使用状态">
            <Select allowClear placeholder="全部" style={{ width: 110 }} options={opts(IncomeUsage.options)} />
          </Form.Item>
          <Form.Item name="docNo" label="单据号">
            <Input allowClear placeholder="报销单、合同等的编号" maxLength={40} style={{ width: 180 }} />
          </Form.Item>
          <Form.Item name="archiveNo" label="档案号">
            <Input allowClear maxLength={40} style={{ width: 150 }} />
          </Form.Item>
          <Form.Item name="checkCode" label="校验码">
            <Input allowClear maxLength={40} style={{ width: 180 }} />
          </Form.Item>
        </>
      ) : null}
      <Form.Item>
        <Button type="link" onClick={() => setMore(!more)} icon={more ? <UpOutlined /> : <DownOutlined />} data-testid="pool-more-filters">
          {more ? '收起' : '更多筛选'}
        </Button>
      </Form.Item>
    </>
  );
}
