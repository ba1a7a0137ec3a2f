/**
 * The order's detail (/cost-order/cost-order-detail): the header facts, the lines with where each price came
 * from (the price list window 有效期, and a marker when the list's price for the month now differs — what
 * 重新取价 would change), the same department and project's order of the month before for comparison, and the
 * log. Entry roles (1, 16, 17) may edit or re-price an order awaiting audit in an open month (`can`, per caller).
 */
import { EditOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Drawer, Empty, Skeleton, Space, Table, Tag, Timeline, Tooltip, Typography, type TableColumnsType } from 'antd';
import { formatUnitPrice, previousMonth, type CostOrderDetail, type CostOrderLineView } from '@zhyy/shared';
import { costOrderApi } from '../../../api/cost';
import { formatDateTime } from '../../../components/format';
import { columnsWidth } from '../../../components/tableWidth';
import { Figure, Money } from '../../common/Money';
import { COST_KEY, costCategoryLabel, costSourceLabel, CostStateTag, formatMonth, formatRate } from '../common';

/** The log's actions as the server names them; an unknown action shows only its message. */
const ACTION_LABELS: Record<string, string> = {
  create: '新增',
  entry: '新增',
  edit: '编辑',
  save: '保存',
  copy: '复制上月',
  reprice: '重新取价',
  import: 'Excel导入',
  pms: '项目管理系统同步',
  audit: '审核',
  audited: '审核',
  invalid: '作废',
  invalidate: '作废',
};

/** The price's window as 有效期: 'from 至 to', or 'from 起长期有效'. */
export function priceWindow(from: string, to: string | null): string {
  if (!from) return '—';
  return to ? `${from} 至 ${to}` : `${from} 起长期有效`;
}

function PriceSource({ line }: { line: CostOrderLineView }) {
  return (
    <Space orientation="vertical" size={0}>
      <Typography.Text data-testid="cost-line-window">{line.priceId ? priceWindow(line.priceFrom, line.priceTo) : '价格表中已无此价格'}</Typography.Text>
      {line.currentPrice !== null && line.currentPrice !== line.unitPrice ? (
        <Tooltip title="价格表中该月的价格已变化，重新取价将按现价重算">
          <Tag color="warning" data-testid="cost-line-current-price">现价 {formatUnitPrice(line.currentPrice)}</Tag>
        </Tooltip>
      ) : null}
    </Space>
  );
}

function linesColumns(withSource: boolean): TableColumnsType<CostOrderLineView> {
  const cols: TableColumnsType<CostOrderLineView> = [
    { title: '行', dataIndex: 'lineNo', key: 'lineNo', width: 44 },
    { title: '成本项', key: 'item', width: 180, render: (_, l) => <span>{l.itemCode} {l.itemName}</span> },
    { title: '类别', key: 'category', width: 80, render: (_, l) => costCategoryLabel(l.category) },
    { title: '规格', dataIndex: 'spec', key: 'spec', width: 90, ellipsis: true, render: (v: string) => v || '—' },
    { title: '单位', dataIndex: 'unit', key: 'unit', width: 60 },
    { title: '数量', dataIndex: 'quantity', key: 'quantity', width: 90, align: 'right' },
    { title: '不含税单价', key: 'unitPrice', width: 150, align: 'right', render: (_, l) => <Figure>{formatUnitPrice(l.unitPrice)}</Figure> },
    { title: '税率', key: 'taxRate', width: 60, align: 'right', render: (_, l) => formatRate(l.taxRate) },
    { title: '金额', key: 'amount', width: 110, align: 'right', render: (_, l) => <Money fen={l.amount} /> },
    { title: '税额', key: 'tax', width: 100, align: 'right', render: (_, l) => <Money fen={l.tax} /> },
  ];
  if (withSource) {
    cols.push({ title: '价格来源（有效期）', key: 'source', width: 200, render: (_, l) => <PriceSource line={l} /> });
    cols.push({ title: '备注', dataIndex: 'remark', key: 'remark', width: 120, ellipsis: true, render: (v: string) => v || '—' });
  }
  return cols;
}

const LINE_COLUMNS = linesColumns(true);
const PREVIOUS_COLUMNS = linesColumns(false);

function Previous({ d }: { d: CostOrderDetail }) {
  const p = d.previous;
  const label = `上月（${formatMonth(previousMonth(d.month))}）`;
  if (!p) return <Empty description={`${label}该部门该项目没有成本单`} data-testid="cost-previous-empty" />;
  const diff = d.total - p.total;
  return (
    <div data-testid="cost-previous">
      <Descriptions size="small" bordered column={3} style={{ marginBottom: 8 }}>
        <Descriptions.Item label="成本单号">{p.orderNo}</Descriptions.Item>
        <Descriptions.Item label="金额"><Money fen={p.amount} /></Descriptions.Item>
        <Descriptions.Item label="税额"><Money fen={p.tax} /></Descriptions.Item>
        <Descriptions.Item label="价税合计"><Money fen={p.total} /></Descriptions.Item>
        <Descriptions.Item label="本月较上月" span={2}>
          <span data-testid="cost-previous-diff">
            {diff === 0 ? '持平' : <>{diff > 0 ? '增加 ' : '减少 '}<Money fen={Math.abs(diff)} /></>}
          </span>
        </Descriptions.Item>
      </Descriptions>
      <Table<CostOrderLineView> rowKey="id" size="small" columns={PREVIOUS_COLUMNS} dataSource={p.lines} pagination={false} scroll={{ x: columnsWidth(PREVIOUS_COLUMNS) }} locale={{ emptyText: '没有明细' }} />
    </div>
  );
}

function Logs({ d }: { d: CostOrderDetail }) {
  if (!d.logs.length) return <Empty description="暂无记录" />;
  return (
    <Timeline
      data-testid="cost-order-logs"
      items={d.logs.map((l) => ({
        color: l.action.startsWith('invalid') ? 'gray' : l.action.startsWith('audit') ? 'green' : 'blue',
        content: (
          <Space orientation="vertical" size={0}>
            <Space wrap size={4}>
              {ACTION_LABELS[l.action] ? <Tag>{ACTION_LABELS[l.action]}</Tag> : null}
              <Typography.Text type="secondary">{formatDateTime(l.createdAt)}</Typography.Text>
              <Typography.Text>{l.userName}</Typography.Text>
            </Space>
            {l.message ? <Typography.Text>{l.message}</Typography.Text> : null}
          </Space>
        ),
      }))}
    />
  );
}

export interface OrderDetailDrawerProps {
  id: string | null;
  onClose: () => void;
  /** Entry roles only (the buttons are hidden otherwise); `can` says whether this order may still change. */
  canEnter: boolean;
  onEdit: (id: string) => void;
  onReprice: (d: CostOrderDetail) => void;
}

export function OrderDetailDrawer({ id, onClose, canEnter, onEdit, onReprice }: OrderDetailDrawerProps) {
  const q = useQuery({ queryKey: [...COST_KEY, 'detail', id], queryFn: () => costOrderApi.detail(id!), enabled: !!id, retry: false });
  const d = q.data;
  const extra =
    d && canEnter ? (
      <Space>
        {d.can.reprice ? <Button icon={<ReloadOutlined />} onClick={() => onReprice(d)} data-testid="cost-detail-reprice">重新取价</Button> : null}
        {d.can.edit ? <Button type="primary" icon={<EditOutlined />} onClick={() => onEdit(d.id)} data-testid="cost-detail-edit">编辑</Button> : null}
      </Space>
    ) : null;
  return (
    <Drawer title={d ? `成本单 ${d.orderNo}` : '成本单详情'} open={!!id} onClose={onClose} size={1000} destroyOnHidden extra={extra} data-testid="cost-detail-drawer">
      {q.isLoading ? (
        <Skeleton active />
      ) : q.isError || !d ? (
        <Alert type="error" showIcon title={q.error instanceof Error && q.error.message ? q.error.message : '加载失败，请稍后重试'} />
      ) : (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          {d.closed ? <Alert type="info" showIcon title={`${d.deptName}${formatMonth(d.month)}已结账，成本单不能再修改`} /> : null}
          <Descriptions size="small" bordered column={3} data-testid="cost-detail-facts">
            <Descriptions.Item label="成本单号">{d.orderNo}</Descriptions.Item>
            <Descriptions.Item label="月份">{formatMonth(d.month)}</Descriptions.Item>
            <Descriptions.Item label="状态"><CostStateTag state={d.state} /></Descriptions.Item>
            <Descriptions.Item label="部门">{d.deptName}</Descriptions.Item>
            <Descriptions.Item label="项目" span={2}>{d.projectCode ? `${d.projectCode} ` : ''}{d.projectName}</Descriptions.Item>
            <Descriptions.Item label="金额"><Money fen={d.amount} /></Descriptions.Item>
            <Descriptions.Item label="税额"><Money fen={d.tax} /></Descriptions.Item>
            <Descriptions.Item label="价税合计"><Money fen={d.total} strong /></Descriptions.Item>
            <Descriptions.Item label="来源">{costSourceLabel(d.source)}{d.pmsRef ? `（${d.pmsRef}）` : ''}</Descriptions.Item>
            <Descriptions.Item label="创建">{d.createdBy} {formatDateTime(d.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="审核">{d.auditedBy ? `${d.auditedBy} ${formatDateTime(d.auditedAt)}` : '—'}</Descriptions.Item>
            {d.invalidReason ? <Descriptions.Item label="作废原因" span={3}>{d.invalidReason}</Descriptions.Item> : null}
            <Descriptions.Item label="备注" span={3}>{d.remark || '—'}</Descriptions.Item>
          </Descriptions>
          <Card size="small" title={`成本明细（${d.lines.length} 行）`}>
            <Table<CostOrderLineView> rowKey="id" size="small" columns={LINE_COLUMNS} dataSource={d.lines} pagination={false} scroll={{ x: columnsWidth(LINE_COLUMNS) }} data-testid="cost-detail-lines" locale={{ emptyText: '没有明细' }} />
          </Card>
          <Card size="small" title="与上月对比">
            <Previous d={d} />
          </Card>
          <Card size="small" title="处理记录">
            <Logs d={d} />
          </Card>
        </Space>
      )}
    </Drawer>
  );
}
