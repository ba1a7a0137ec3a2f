/**
 * 新增成本单 / 编辑成本单 (roles 1, 16, 17; an edit only while the order awaits audit and its month is open):
 * the month, department, project and remark, and the lines — each an item of the price list in force for the
 * month (/cost-price/options), with a quantity of up to 4 decimal places. Amount and tax are computed as the
 * user types with the shared lineAmount / lineTax (half-up to 分) and the totals are the sums of the rounded
 * lines, exactly what the server will store: it looks the prices up again for the month when saving.
 * Refusals (no price in the month, a second live order, a closed month …) show in place, in the server's words.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Form, Input, Modal, Select, Space, Spin, Table, Typography, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { formatUnitPrice, type CostOrderDetail, type CostOrderSaved, type CostPriceRow } from '@zhyy/shared';
import { costOrderApi, costPriceApi } from '../../../api/cost';
import { columnsWidth } from '../../../components/tableWidth';
import { feedback } from '../../../ui/feedback';
import { Figure, Money } from '../../common/Money';
import { COST_KEY, currentMonth, formatMonth, formatRate, fromMonth, toMonth } from '../common';
import { CostDeptSelect, CostProjectSelect } from '../pickers';
import { editorTotals, lineMoney, priceKey, quantityProblem, type EditorLine } from './lines';

/** /cost-price/options answers at most this many rows; a full answer means more may exist (search on the server). */
export const OPTIONS_LIMIT = 500;
const MAX_LINES = 200;

export type EditorTarget = { mode: 'new' } | { mode: 'edit'; id: string };

interface HeaderValues {
  month?: Dayjs | null;
  deptId?: string;
  projectId?: string;
  remark?: string;
}

let seq = 0;
const newKey = () => `l${++seq}`;
const emptyLine = (): EditorLine => ({ key: newKey(), itemCode: '', spec: '', unit: '', itemName: '', quantity: '', remark: '' });

const optionLabel = (r: Pick<CostPriceRow, 'itemCode' | 'itemName' | 'spec' | 'unit'>) => `${r.itemCode} ${r.itemName}${r.spec ? ` ${r.spec}` : ''} / ${r.unit}`;

function useDebounced(value: string, ms = 300) {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value.trim()), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}

/** The item of one line: the month's prices, filtered locally, or searched on the server when the list was cut. */
function ItemPicker(props: { month: string | undefined; line: EditorLine; base: CostPriceRow[]; truncated: boolean; onPick: (row: CostPriceRow) => void; index: number }) {
  const { month, line, base, truncated } = props;
  const [typed, setTyped] = useState('');
  const keyword = useDebounced(typed);
  const search = useQuery({
    queryKey: [...COST_KEY, 'price-options', month, keyword],
    queryFn: () => costPriceApi.options({ month: month!, keyword }),
    enabled: truncated && !!month && !!keyword,
  });
  const rows = truncated && keyword ? (search.data ?? []) : base;
  const value = line.itemCode ? priceKey(line) : undefined;
  const options = rows.map((r) => ({ value: priceKey(r), label: optionLabel(r) }));
  if (value && !options.some((o) => o.value === value)) options.unshift({ value, label: optionLabel(line) });
  return (
    <Select
      value={value}
      placeholder={month ? '选择成本项' : '请先选择月份'}
      disabled={!month}
      options={options}
      showSearch={truncated ? { filterOption: false, onSearch: setTyped } : { optionFilterProp: 'label' }}
      loading={search.isFetching}
      notFoundContent={search.isFetching ? '加载中…' : '该月没有匹配的有效价格'}
      onChange={(k: string) => {
        const row = rows.find((r) => priceKey(r) === k) ?? base.find((r) => priceKey(r) === k);
        if (row) props.onPick(row);
      }}
      style={{ width: '100%' }}
      popupMatchSelectWidth={420}
      data-testid={`cost-line-item-${props.index}`}
    />
  );
}

function EditorBody({ target, onClose, onSaved }: { target: EditorTarget; onClose: () => void; onSaved: (ref: CostOrderSaved) => void }) {
  const [form] = Form.useForm<HeaderValues>();
  const editId = target.mode === 'edit' ? target.id : undefined;
  const detail = useQuery({ queryKey: [...COST_KEY, 'detail', editId], queryFn: () => costOrderApi.detail(editId!), enabled: !!editId, retry: false });
  const [lines, setLines] = useState<EditorLine[]>(() => (editId ? [] : [emptyLine()]));
  const [error, setError] = useState('');
  const [problems, setProblems] = useState<string[]>([]);
  const [saving, setSaving] = useState(false);
  const dirty = useRef(false);
  const loaded = useRef<CostOrderDetail | null>(null);

  useEffect(() => {
    const d = detail.data;
    if (!d || loaded.current) return;
    loaded.current = d;
    form.setFieldsValue({ month: fromMonth(d.month), deptId: d.deptId, projectId: d.projectId, remark: d.remark });
    setLines(d.lines.map((l) => ({ key: newKey(), itemCode: l.itemCode, spec: l.spec, unit: l.unit, itemName: l.itemName, quantity: l.quantity, remark: l.remark })));
  }, [detail.data, form]);

  const month = toMonth(Form.useWatch('month', form));
  const prices = useQuery({ queryKey: [...COST_KEY, 'price-options', month, ''], queryFn: () => costPriceApi.options({ month: month! }), enabled: !!month });
  const base = useMemo(() => prices.data ?? [], [prices.data]);
  const truncated = base.length >= OPTIONS_LIMIT;
  // Rows picked from a server search (beyond the first OPTIONS_LIMIT), by month and key.
  const [picked, setPicked] = useState<Record<string, CostPriceRow>>({});
  const baseMap = useMemo(() => new Map(base.map((r) => [priceKey(r), r])), [base]);
  // After a month change with a cut list: look up the lines' items that the first answer did not hold.
  const missing = truncated ? [...new Set(lines.filter((l) => l.itemCode && !baseMap.has(priceKey(l)) && !picked[`${month}|${priceKey(l)}`]).map((l) => l.itemCode))] : [];
  const lookups = useQueries({
    queries: missing.map((code) => ({ queryKey: [...COST_KEY, 'price-options', month, code], queryFn: () => costPriceApi.options({ month: month!, keyword: code }), enabled: !!month })),
  });
  const priceOf = (l: EditorLine): CostPriceRow | undefined => {
    if (!l.itemCode) return undefined;
    const k = priceKey(l);
    return baseMap.get(k) ?? picked[`${month}|${k}`] ?? lookups.flatMap((q) => q.data ?? []).find((r) => priceKey(r) === k);
  };
  const lookingUp = prices.isFetching || lookups.some((q) => q.isFetching);

  const money = lines.map((l) => lineMoney(l.quantity, priceOf(l)));
  const totals = editorTotals(money);

  const change = (key: string, patch: Partial<EditorLine>) => {
    dirty.current = true;
    setProblems([]);
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)));
  };
  const pick = (key: string, row: CostPriceRow) => {
    if (month) setPicked((p) => ({ ...p, [`${month}|${priceKey(row)}`]: row }));
    change(key, { itemCode: row.itemCode, spec: row.spec, unit: row.unit, itemName: row.itemName });
  };

  const columns: TableColumnsType<EditorLine> = [
    { title: '行', key: 'no', width: 44, render: (_, _l, i) => i + 1 },
    { title: '成本项', key: 'item', width: 300, render: (_, l, i) => <ItemPicker month={month} line={l} base={base} truncated={truncated} index={i} onPick={(row) => pick(l.key, row)} /> },
    {
      title: '不含税单价',
      key: 'unitPrice',
      width: 150,
      align: 'right',
      render: (_, l) => {
        const p = priceOf(l);
        if (!l.itemCode) return '—';
        if (!p) return <Typography.Text type="danger">{lookingUp ? '取价中…' : '该月无有效价格'}</Typography.Text>;
        return <Figure>{formatUnitPrice(p.unitPrice)}</Figure>;
      },
    },
    { title: '税率', key: 'taxRate', width: 64, align: 'right', render: (_, l) => { const p = priceOf(l); return p ? formatRate(p.taxRate) : '—'; } },
    {
      title: '数量',
      key: 'quantity',
      width: 130,
      render: (_, l, i) => {
        const problem = l.quantity ? quantityProblem(l.quantity) : null;
        return (
          <div>
            <Input value={l.quantity} status={problem ? 'error' : undefined} placeholder="最多4位小数" maxLength={14} onChange={(e) => change(l.key, { quantity: e.target.value })} data-testid={`cost-line-quantity-${i}`} />
            {problem ? <Typography.Text type="danger" style={{ fontSize: 12 }}>{problem}</Typography.Text> : null}
          </div>
        );
      },
    },
    { title: '金额', key: 'amount', width: 120, align: 'right', render: (_, _l, i) => (money[i] ? <span data-testid={`cost-line-amount-${i}`}><Money fen={money[i].amount} /></span> : '—') },
    { title: '税额', key: 'tax', width: 100, align: 'right', render: (_, _l, i) => (money[i] ? <span data-testid={`cost-line-tax-${i}`}><Money fen={money[i].tax} /></span> : '—') },
    { title: '备注', key: 'remark', width: 150, render: (_, l) => <Input value={l.remark} maxLength={100} onChange={(e) => change(l.key, { remark: e.target.value })} /> },
    {
      title: '操作',
      key: 'op',
      width: 56,
      render: (_, l) => (
        <Button type="text" danger icon={<DeleteOutlined />} aria-label="删除该行" disabled={lines.length <= 1} onClick={() => { dirty.current = true; setLines((ls) => ls.filter((x) => x.key !== l.key)); }} />
      ),
    },
  ];

  const save = async () => {
    setError('');
    let header: HeaderValues;
    try {
      header = await form.validateFields();
    } catch {
      return;
    }
    const m = toMonth(header.month)!;
    const found: string[] = [];
    if (!lines.length) found.push('请至少填写一行成本明细');
    lines.forEach((l, i) => {
      const n = `第${i + 1}行：`;
      if (!l.itemCode) return void found.push(`${n}请选择成本项`);
      if (!priceOf(l)) found.push(`${n}${l.itemCode} ${l.spec} ${l.unit} 在${m}没有有效价格`);
      const q = quantityProblem(l.quantity);
      if (q) found.push(`${n}${q}`);
    });
    setProblems(found);
    if (found.length) return;
    setSaving(true);
    try {
      const remark = header.remark?.trim();
      const env = await costOrderApi.save(
        {
          ...(editId ? { id: editId } : {}),
          month: m,
          deptId: header.deptId!,
          projectId: header.projectId!,
          ...(remark ? { remark } : {}),
          lines: lines.map((l) => ({ itemCode: l.itemCode, spec: l.spec, unit: l.unit, quantity: l.quantity.trim(), ...(l.remark.trim() ? { remark: l.remark.trim() } : {}) })),
        },
        { silent: true },
      );
      void feedback().message.success(`${editId ? '已保存' : '已新增'}成本单 ${env.r.orderNo}`);
      dirty.current = false;
      onSaved(env.r);
    } catch (e) {
      setError(e instanceof Error && e.message ? e.message : '保存失败，请稍后重试');
    } finally {
      setSaving(false);
    }
  };

  const close = () => {
    if (!dirty.current) return onClose();
    feedback().modal.confirm({ title: '放弃未保存的修改？', content: '关闭后本次填写的内容将丢失。', okText: '放弃修改', okButtonProps: { danger: true }, cancelText: '继续编辑', onOk: onClose });
  };

  const d = detail.data;
  const cannotEdit = !!d && !d.can.edit;
  const title = editId ? `编辑成本单${d ? ` ${d.orderNo}` : ''}` : '新增成本单';
  return (
    <Modal
      open
      title={title}
      width={1160}
      onCancel={close}
      mask={{ closable: false }}
      footer={
        <Space>
          <Button onClick={close}>取消</Button>
          <Button type="primary" loading={saving} disabled={cannotEdit || (!!editId && !d)} onClick={() => void save()} data-testid="cost-editor-save">保存</Button>
        </Space>
      }
    >
      {editId && detail.isLoading ? (
        <div style={{ padding: 40, textAlign: 'center' }}><Spin /></div>
      ) : editId && detail.isError ? (
        <Alert type="error" showIcon title={detail.error instanceof Error ? detail.error.message : '加载失败，请稍后重试'} />
      ) : (
        <>
          {cannotEdit ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title="该成本单已审核、已作废或所在月份已结账，不能编辑" /> : null}
          <Form form={form} name="cost-order" layout="inline" initialValues={editId ? {} : { month: fromMonth(currentMonth()) }} onValuesChange={() => { dirty.current = true; setError(''); }} style={{ rowGap: 12, marginBottom: 12 }}>
            <Form.Item name="month" label="月份" rules={[{ required: true, message: '请选择月份' }]}>
              <DatePicker picker="month" format="YYYY-MM" allowClear={false} style={{ width: 120 }} />
            </Form.Item>
            <Form.Item name="deptId" label="部门" rules={[{ required: true, message: '请选择部门' }]}>
              <CostDeptSelect placeholder="选择部门" allowClear={false} style={{ width: 200 }} />
            </Form.Item>
            <Form.Item name="projectId" label="项目" rules={[{ required: true, message: '请选择项目' }]}>
              <CostProjectSelect placeholder="搜索项目编码或名称" allowClear={false} style={{ width: 260 }} known={d ? { id: d.projectId, code: d.projectCode, name: d.projectName } : undefined} />
            </Form.Item>
            <Form.Item name="remark" label="备注" style={{ flex: 1, minWidth: 240 }}>
              <Input maxLength={200} placeholder="选填" />
            </Form.Item>
          </Form>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {month ? `按${formatMonth(month)}有效的价格取价` : '选择月份后按该月有效的价格取价'}；金额 = 数量 × 不含税单价，四舍五入到分；税额 = 金额 × 税率，四舍五入到分。保存时服务器按该月价格重新取价。
          </Typography.Paragraph>
          {month && prices.isError ? <Alert type="error" showIcon style={{ marginBottom: 8 }} title="价格表加载失败，请稍后重试" /> : null}
          <Table<EditorLine>
            rowKey="key"
            size="small"
            columns={columns}
            dataSource={lines}
            pagination={false}
            scroll={{ x: columnsWidth(columns), y: 360 }}
            data-testid="cost-editor-lines"
            summary={() => (
              <Table.Summary fixed="bottom">
                <Table.Summary.Row data-testid="cost-editor-totals">
                  <Table.Summary.Cell index={0} colSpan={5}>
                    <Typography.Text strong>合计（{lines.length} 行），价税合计 <Money fen={totals.total} strong /></Typography.Text>
                  </Table.Summary.Cell>
                  <Table.Summary.Cell index={5} align="right"><Money fen={totals.amount} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={6} align="right"><Money fen={totals.tax} strong /></Table.Summary.Cell>
                  <Table.Summary.Cell index={7} colSpan={2} />
                </Table.Summary.Row>
              </Table.Summary>
            )}
          />
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            style={{ marginTop: 8 }}
            disabled={lines.length >= MAX_LINES}
            onClick={() => { dirty.current = true; setLines((ls) => [...ls, emptyLine()]); }}
            data-testid="cost-editor-add-line"
          >
            添加明细{lines.length >= MAX_LINES ? `（最多${MAX_LINES}行）` : ''}
          </Button>
          {problems.length ? (
            <Alert type="error" showIcon style={{ marginTop: 12 }} title="请修改后再保存" description={<ul style={{ margin: 0, paddingLeft: 18 }}>{problems.map((p) => <li key={p}>{p}</li>)}</ul>} data-testid="cost-editor-problems" />
          ) : null}
          {error ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={error} data-testid="cost-editor-error" /> : null}
        </>
      )}
    </Modal>
  );
}

/** The editor dialog; nothing is drawn while `target` is null. */
export function OrderEditor({ target, onClose, onSaved }: { target: EditorTarget | null; onClose: () => void; onSaved: (ref: CostOrderSaved) => void }) {
  if (!target) return null;
  return <EditorBody key={target.mode === 'edit' ? target.id : 'new'} target={target} onClose={onClose} onSaved={onSaved} />;
}
