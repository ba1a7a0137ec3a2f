/**
 * 价格表: the price windows (keyword on code or name, category, in force on a day), server paging; 新增, 编辑,
 * 调价 (the item's next window), 删除 (after a confirmation; a window order lines use cannot be deleted, only
 * shortened), the item's timeline of windows, Excel import (per-row results, template) and export.
 */
import { PlusOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, DatePicker, Form, Input, Modal, Popconfirm, Select, Space, Tag, Timeline, Tooltip, Typography, type TableColumnsType } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { formatUnitPrice, type CostPriceRow } from '@zhyy/shared';
import { costPriceApi } from '../../../api/cost';
import { formatDateTime } from '../../../components/format';
import { ListPage } from '../../../components/ListPage';
import { feedback } from '../../../ui/feedback';
import { compact, COST_CATEGORY_OPTIONS, COST_KEY, costCategoryLabel, formatRate } from '../common';
import { PriceEditModal, type PriceEditing } from './PriceEditModal';
import { PriceImport } from './PriceImport';

export const PRICE_KEY = [...COST_KEY, 'prices'] as const;

interface FilterValues {
  keyword?: string;
  category?: string;
  on?: Dayjs | null;
}

export function toPriceQuery(v: FilterValues): Record<string, unknown> {
  return compact({ keyword: v.keyword?.trim(), category: v.category, on: v.on ? v.on.format('YYYY-MM-DD') : undefined });
}

/** Where a window stands on `today` ('YYYY-MM-DD'). */
export function windowState(w: Pick<CostPriceRow, 'validFrom' | 'validTo'>, today: string): 'current' | 'past' | 'future' {
  if (w.validFrom > today) return 'future';
  if (w.validTo && w.validTo < today) return 'past';
  return 'current';
}

const WINDOW_TAGS = { current: { color: 'green', text: '执行中' }, past: { color: 'default', text: '已失效' }, future: { color: 'blue', text: '未生效' } } as const;

export function PriceTimeline({ row, onClose }: { row: CostPriceRow | null; onClose: () => void }) {
  const key = row ? { itemCode: row.itemCode, spec: row.spec, unit: row.unit } : null;
  const q = useQuery({ queryKey: [...PRICE_KEY, 'timeline', key], queryFn: () => costPriceApi.timeline(key!), enabled: !!key });
  const today = dayjs().format('YYYY-MM-DD');
  return (
    <Modal open={!!row} title={row ? `价格时间线：${row.itemCode} ${row.itemName}${row.spec ? ` ${row.spec}` : ''}（${row.unit}）` : '价格时间线'} footer={null} onCancel={onClose} destroyOnHidden width={560}>
      {q.isLoading ? <Typography.Text type="secondary">加载中…</Typography.Text> : null}
      {q.data ? (
        <div data-testid="price-timeline">
        <Timeline
          items={q.data.map((w) => {
            const s = windowState(w, today);
            return {
              key: w.id,
              color: s === 'current' ? 'green' : s === 'future' ? 'blue' : 'gray',
              title: `${w.validFrom} 至 ${w.validTo ?? '长期'}`,
              content: (
                <Space orientation="vertical" size={0}>
                  <Space size={6}>
                    <span>不含税单价 {formatUnitPrice(w.unitPrice)} 元/{w.unit}，税率 {formatRate(w.taxRate)}</span>
                    <Tag color={WINDOW_TAGS[s].color}>{WINDOW_TAGS[s].text}</Tag>
                  </Space>
                  <Typography.Text type="secondary">{w.usedCount ? `${w.usedCount} 行成本明细使用` : '未被使用'} · {w.updatedBy} {formatDateTime(w.updatedAt)}</Typography.Text>
                </Space>
              ),
            };
          })}
        />
        </div>
      ) : null}
    </Modal>
  );
}

export function PriceTab() {
  const qc = useQueryClient();
  const [editing, setEditing] = useState<PriceEditing | null>(null);
  const [timeline, setTimeline] = useState<CostPriceRow | null>(null);
  const reload = () => void qc.invalidateQueries({ queryKey: PRICE_KEY });
  const remove = async (r: CostPriceRow) => {
    try {
      await costPriceApi.remove({ id: r.id });
      void feedback().message.success('已删除');
      reload();
    } catch {
      // Shown by the API client.
    }
  };
  const columns: TableColumnsType<CostPriceRow> = [
    { title: '成本项编码', dataIndex: 'itemCode', key: 'itemCode', width: 120, fixed: 'left' },
    { title: '成本项名称', dataIndex: 'itemName', key: 'itemName', width: 130, ellipsis: true },
    { title: '类别', key: 'category', width: 90, render: (_, r) => costCategoryLabel(r.category) },
    { title: '规格', dataIndex: 'spec', key: 'spec', width: 100, ellipsis: true },
    { title: '单位', dataIndex: 'unit', key: 'unit', width: 60 },
    { title: '不含税单价（元）', key: 'unitPrice', width: 150, align: 'right', render: (_, r) => <span className="figure" data-figure="">{formatUnitPrice(r.unitPrice)}</span> },
    { title: '税率', key: 'taxRate', width: 70, align: 'right', render: (_, r) => formatRate(r.taxRate) },
    { title: '生效日期', dataIndex: 'validFrom', key: 'validFrom', width: 110 },
    { title: '失效日期', key: 'validTo', width: 110, render: (_, r) => r.validTo ?? <Tag color="green">长期有效</Tag> },
    { title: '使用', key: 'usedCount', width: 80, align: 'right', render: (_, r) => (r.usedCount ? `${r.usedCount} 行` : '—') },
    { title: '更新', key: 'updated', width: 190, render: (_, r) => `${r.updatedBy} ${formatDateTime(r.updatedAt)}` },
    {
      title: '操作', key: 'actions', width: 220, fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setEditing({ mode: 'edit', row: r })} data-testid={`price-edit-${r.id}`}>编辑</Button>
          <Button type="link" size="small" onClick={() => setEditing({ mode: 'next', row: r })}>调价</Button>
          <Button type="link" size="small" onClick={() => setTimeline(r)} data-testid={`price-timeline-${r.id}`}>时间线</Button>
          {r.usedCount ? (
            <Tooltip title="已被成本明细使用，不能删除；可缩短有效期">
              <Button type="link" size="small" danger disabled>删除</Button>
            </Tooltip>
          ) : (
            <Popconfirm title={`删除 ${r.itemCode} ${r.validFrom} 起的价格？`} okText="删除" okButtonProps={{ danger: true }} cancelText="取消" onConfirm={() => remove(r)}>
              <Button type="link" size="small" danger data-testid={`price-delete-${r.id}`}>删除</Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  return (
    <>
      <ListPage<CostPriceRow>
        testId="price-tab"
        queryKey={[...PRICE_KEY, 'list']}
        fetch={(p) => costPriceApi.list(p)}
        columns={columns}
        rowKey="id"
        toRequest={(v) => toPriceQuery(v as FilterValues)}
        emptyText="价格表为空"
        filters={
          <>
            <Form.Item name="keyword" label="关键字"><Input allowClear placeholder="编码或名称" maxLength={50} style={{ width: 160 }} /></Form.Item>
            <Form.Item name="category" label="类别"><Select allowClear placeholder="全部" options={COST_CATEGORY_OPTIONS} style={{ width: 120 }} /></Form.Item>
            <Form.Item name="on" label="有效日期"><DatePicker placeholder="某日执行的价格" style={{ width: 160 }} /></Form.Item>
          </>
        }
        actions={
          <>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ mode: 'new' })} data-testid="price-new">新增价格</Button>
            <PriceImport onDone={reload} />
          </>
        }
        export={{ fileName: '成本价格表', run: (f) => costPriceApi.export(f) }}
      />
      <PriceEditModal editing={editing} onClose={() => setEditing(null)} onSaved={() => { setEditing(null); reload(); }} />
      <PriceTimeline row={timeline} onClose={() => setTimeline(null)} />
    </>
  );
}
