/**
 * 部门月度报销流水: the lines of the pushed bills (已报销) of a month (the voucher date's) and a department,
 * one row per line, with the totals of the whole set (不含税净额 = 核定金额 − 可抵扣税额), and the streamed
 * export. Opened from 部门月度报销汇总 with ?month=YYYY-MM&deptId=… (deptId=none: bills without a department).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Card, DatePicker, Form, Select, Space, Table, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useContext, useEffect, useState } from 'react';
import { Link } from 'react-router';
import type { ReimbLaundryRow } from '@zhyy/shared';
import { REIMB_EXPORT_PATHS, reimbLedgerApi } from '../../../api/reimbursementLedger';
import { FilterButtons, pageFromTable, sortFromTable, sortOrderOf, SummaryLabel, tableLocale, tablePagination, type TableSort } from '../../../components/listTable';
import { tableScrollX } from '../../../components/tableWidth';
import { ViewContext } from '../../../router/view';
import { Money } from '../../common/Money';
import { ExportProgress } from '../../common/ExportProgress';
import { billPath, NO_DEPT, REIMB_LEDGER_KEY, useReportOptions } from './common';
import '../../../components/listPage.css';
import './reports.css';

interface FormValues {
  month?: Dayjs | null;
  deptId?: string;
  categoryCode?: string;
}

/** The page's filters from its address (?month=2026-03&deptId=…), else this month, every department. */
export function laundryInitial(search: string): FormValues {
  const p = new URLSearchParams(search);
  const m = p.get('month');
  return { month: m && /^\d{4}-\d{2}$/.test(m) ? dayjs(`${m}-01`) : dayjs().startOf('month'), deptId: p.get('deptId') || undefined, categoryCode: p.get('categoryCode') || undefined };
}

export function toLaundryRequest(v: FormValues): Record<string, unknown> {
  return {
    month: (v.month ?? dayjs()).format('YYYY-MM'),
    ...(v.deptId ? { deptId: v.deptId === NO_DEPT ? '' : v.deptId } : {}),
    ...(v.categoryCode ? { categoryCode: v.categoryCode } : {}),
  };
}

export default function LaundryPage() {
  const search = useContext(ViewContext)?.search ?? '';
  const [form] = Form.useForm<FormValues>();
  const [filters, setFilters] = useState<Record<string, unknown>>(() => toLaundryRequest(laundryInitial(search)));
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 20 });
  const [sort, setSort] = useState<TableSort>();
  const options = useReportOptions();
  const params = { ...filters, ...page, ...(sort ? { sort } : {}) };
  const q = useQuery({ queryKey: [...REIMB_LEDGER_KEY, 'laundry', params], queryFn: () => reimbLedgerApi.laundry(params), placeholderData: keepPreviousData });
  const apply = (v: FormValues) => {
    setFilters(toLaundryRequest(v));
    setPage((p) => ({ ...p, pageIndex: 1 }));
  };
  // Opened again from the summary with another department or month: the address wins.
  useEffect(() => {
    if (!search) return;
    const init = laundryInitial(search);
    form.setFieldsValue({ month: init.month, deptId: init.deptId, categoryCode: init.categoryCode });
    apply(init);
  }, [search]); // eslint-disable-line react-hooks/exhaustive-deps

  const sorted = sortOrderOf(sort);
  const columns: TableColumnsType<ReimbLaundryRow> = [
    { title: '报销单号', key: 'billNo', width: 150, fixed: 'left', sorter: true, sortOrder: sorted('billNo'), render: (_, r) => <Link to={billPath(r.billId)} data-testid="laundry-bill-link">{r.billNo}</Link> },
    { title: '费用类别', dataIndex: 'categoryName', key: 'categoryName', width: 120, ellipsis: true },
    // Issue 31: the line's amounts right after its category, whole at 1366 without scrolling; the description after.
    { title: '报销金额', key: 'amount', width: 120, align: 'right', sorter: true, sortOrder: sorted('amount'), render: (_, r) => <Money fen={r.amount} /> },
    { title: '核定金额', key: 'approvedAmount', width: 120, align: 'right', sorter: true, sortOrder: sorted('approvedAmount'), render: (_, r) => <Money fen={r.approvedAmount} strong /> },
    { title: '税额', key: 'tax', width: 100, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: '可抵扣税额', key: 'deductibleTax', width: 110, align: 'right', render: (_, r) => <Money fen={r.deductibleTax} /> },
    { title: '不含税净额', key: 'netAmount', width: 120, align: 'right', render: (_, r) => <Money fen={r.netAmount} /> },
    { title: '申请人', dataIndex: 'applicantName', key: 'applicantName', width: 90 },
    { title: '部门', dataIndex: 'deptName', key: 'deptName', width: 120, ellipsis: true },
    { title: '费用日期', dataIndex: 'expenseDate', key: 'expenseDate', width: 110, sorter: true, sortOrder: sorted('expenseDate') },
    { title: '说明', dataIndex: 'description', key: 'description', width: 180, ellipsis: true },
    { title: '发票号码', dataIndex: 'invoiceNumber', key: 'invoiceNumber', width: 190 },
    { title: '凭证号', dataIndex: 'voucherNo', key: 'voucherNo', width: 130 },
    { title: '凭证日期', dataIndex: 'voucherDate', key: 'voucherDate', width: 110, sorter: true, sortOrder: sorted('voucherDate') ?? (sort ? null : 'ascend') },
  ];
  const totals = q.data?.totals;
  const body = { ...filters, ...(sort ? { sort } : {}) };
  const initial = laundryInitial(search);
  return (
    <div className="list-page" data-testid="reimb-laundry">
      <Card className="list-page-filters" size="small">
        <Form form={form} name="reimb-laundry" layout="inline" initialValues={initial} onFinish={apply} className="list-page-form">
          <Form.Item name="month" label="月份" rules={[{ required: true, message: '请选择月份' }]}>
            <DatePicker picker="month" allowClear={false} format="YYYY年MM月" data-testid="laundry-month" />
          </Form.Item>
          <Form.Item name="deptId" label="部门">
            <Select
              allowClear showSearch={{ optionFilterProp: 'label' }} placeholder="全部部门" loading={options.isLoading} style={{ width: 180 }}
              options={[...(options.data?.depts ?? []).map((d) => ({ value: d.id, label: d.name })), { value: NO_DEPT, label: '未分配部门' }]}
            />
          </Form.Item>
          <Form.Item name="categoryCode" label="费用类别">
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} placeholder="全部" loading={options.isLoading} style={{ width: 160 }} options={(options.data?.categories ?? []).map((c) => ({ value: c.code, label: c.name }))} />
          </Form.Item>
          <FilterButtons onReset={() => { form.setFieldsValue({ month: dayjs().startOf('month'), deptId: undefined, categoryCode: undefined }); apply({ month: dayjs().startOf('month') }); }} />
          <div className="list-page-actions">
            <Space wrap>
              <ExportProgress path={REIMB_EXPORT_PATHS.laundry} body={body} rows={q.data?.total ?? 0} fileName={`部门月度报销流水${String(filters.month)}`} disabled={!q.data?.total} />
            </Space>
          </div>
        </Form>
      </Card>
      <Card size="small" className="list-page-table">
        <Table<ReimbLaundryRow>
          rowKey="id"
          size="middle"
          columns={columns}
          dataSource={q.data?.items ?? []}
          loading={q.isFetching}
          scroll={{ x: tableScrollX(columns) }}
          locale={tableLocale(q.isError, '该月没有已报销的明细')}
          pagination={tablePagination(page, q.data?.total ?? 0, '行')}
          onChange={(p, _f, sorter) => {
            setSort(sortFromTable(sorter));
            setPage(pageFromTable(p, page));
          }}
          summary={() =>
            totals ? (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row className="reimb-totals" data-testid="laundry-totals">
                  <SummaryLabel colSpan={1}>合计（{totals.count} 行）</SummaryLabel>
                  <Table.Summary.Cell index={1} />
                  <Table.Summary.Cell index={2} align="right"><Money fen={totals.amount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={3} align="right"><Money fen={totals.approvedAmount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={4} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right"><Money fen={totals.deductibleTax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right"><Money fen={totals.netAmount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={7} colSpan={7} />
                </Table.Summary.Row>
              </Table.Summary>
            ) : null
          }
        />
      </Card>
    </div>
  );
}
