/**
 * 统计对比 (issue 32 item 1) on 抵扣统计 / 退税统计: after 申请统计, what the bureau counts for the period against
 * our tick ledger — each side's count and tax — and the worklist of the lines that differ (税务端已勾选，本系统未勾选;
 * 本系统已勾选，税务端未统计; 用途不一致; 有效税额不一致), each with both sides. 采纳税务端 takes the bureau's state of
 * the chosen lines (or of all adoptable ones) into the ledger, asked first; a line that cannot be adopted (the pool
 * does not hold the invoice) says why and cannot be chosen.
 */
import { Alert, Button, Card, Popconfirm, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { IncomeKind, NonDeductReason, StatDiffKind, TickUsage, type StatComparison, type StatDiffLine, type StatDiffSide } from '@zhyy/shared';
import { Money } from '../../common/Money';

const KIND_COLOURS: Record<string, string> = { outside: 'orange', missing: 'red', usage: 'purple', tax: 'gold' };
const kindLabel = (k: string) => ((IncomeKind.values as readonly string[]).includes(k) ? IncomeKind.label(k as never) : k || '—');

/** One side of a line: 未勾选, or the usage (with the 不抵扣 reason) and the effective tax. */
export function SideText({ side, testId }: { side: StatDiffSide | null; testId?: string }) {
  if (!side) return <Typography.Text type="secondary" data-testid={testId}>未勾选</Typography.Text>;
  return (
    <span data-testid={testId}>
      {TickUsage.label(side.vatUsage)}
      {side.vatUsage === 4 && side.deductReason ? `（${NonDeductReason.label(side.deductReason)}）` : ''} <Money fen={side.effectiveTax} />
    </span>
  );
}

export function StatCompare({ comparison, effectiveLabel, canAdopt, busy, onAdopt }: {
  comparison: StatComparison;
  /** 有效抵扣税额 / 退税税额 */
  effectiveLabel: string;
  /** Adoption is possible (applied for, not confirmed). */
  canAdopt: boolean;
  busy: boolean;
  onAdopt: (keys?: string[]) => void;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  const c = comparison;
  const adoptable = c.lines.filter((l) => l.adoptable);
  const columns: TableColumnsType<StatDiffLine> = [
    { title: '发票号码', dataIndex: 'key', key: 'key', width: 200 },
    { title: '差异', key: 'kind', width: 210, render: (_, l) => <Tag color={KIND_COLOURS[l.kind]}>{StatDiffKind.label(l.kind)}</Tag> },
    { title: '本系统', key: 'ours', width: 170, render: (_, l) => <SideText side={l.ours} /> },
    { title: '税务端', key: 'bureau', width: 170, render: (_, l) => <SideText side={l.bureau} /> },
    { title: '税额', key: 'tax', width: 120, align: 'right', render: (_, l) => <Money fen={(l.bureau ?? l.ours)?.tax ?? 0} /> },
    { title: '种类', key: 'invoiceKind', width: 180, render: (_, l) => kindLabel(l.invoiceKind) },
    { title: '开票日期', dataIndex: 'issueDate', key: 'issueDate', width: 110 },
    { title: '销方名称', dataIndex: 'sellerName', key: 'sellerName', width: 200, ellipsis: true },
    { title: '说明', dataIndex: 'note', key: 'note', width: 240, render: (v: string) => (v ? <Typography.Text type="warning">{v}</Typography.Text> : '') },
  ];
  return (
    <Card size="small" title="统计对比（税务端统计 / 本系统勾选记录）" data-testid="stat-compare">
      <Space size={32} wrap data-testid="stat-compare-sides">
        <span data-testid="stat-compare-ours">本系统勾选 <Typography.Text strong>{c.ours.count}</Typography.Text> 份，{effectiveLabel} <Money fen={c.ours.effectiveTax} strong /></span>
        <span data-testid="stat-compare-bureau">税务端统计 <Typography.Text strong>{c.bureau.count}</Typography.Text> 份，{effectiveLabel} <Money fen={c.bureau.effectiveTax} strong /></span>
        <span data-testid="stat-compare-open">差异 <Typography.Text strong type={c.open ? 'danger' : 'success'}>{c.open}</Typography.Text> 条</span>
      </Space>
      {c.open === 0 ? (
        <Alert type="success" showIcon title="税务端统计与本系统勾选记录逐张一致" style={{ marginTop: 8 }} data-testid="stat-compare-same" />
      ) : (
        <>
          <Space wrap style={{ margin: '8px 0' }}>
            <Popconfirm title={`采纳所选 ${chosen.length} 条差异的税务端勾选状态？`} description="本系统勾选记录将改为税务端的状态，并记入勾选日志。" okText="确定" cancelText="取消" disabled={!canAdopt || !chosen.length || busy} onConfirm={() => { onAdopt(chosen); setChosen([]); }}>
              <Button disabled={!canAdopt || !chosen.length} loading={busy} data-testid="stat-adopt-chosen">采纳所选</Button>
            </Popconfirm>
            <Popconfirm title={`采纳全部 ${adoptable.length} 条可采纳差异的税务端勾选状态？`} description="本系统勾选记录将改为税务端的状态，并记入勾选日志。" okText="确定" cancelText="取消" disabled={!canAdopt || !adoptable.length || busy} onConfirm={() => { onAdopt(); setChosen([]); }}>
              <Button type="primary" disabled={!canAdopt || !adoptable.length} loading={busy} data-testid="stat-adopt-all">全部采纳税务端</Button>
            </Popconfirm>
            {!canAdopt ? <Typography.Text type="secondary">统计已确认，不能再采纳；如需修改，请先撤销确认</Typography.Text> : null}
          </Space>
          <Table<StatDiffLine>
            rowKey="key"
            size="small"
            columns={columns}
            dataSource={c.lines}
            pagination={c.lines.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
            scroll={{ x: 1600 }}
            rowSelection={canAdopt ? { selectedRowKeys: chosen, onChange: (keys) => setChosen(keys as string[]), getCheckboxProps: (l) => ({ disabled: !l.adoptable }) } : undefined}
            data-testid="stat-compare-lines"
          />
        </>
      )}
    </Card>
  );
}
