/**
 * 抵扣统计 / 退税统计 (issue 14): the period's statistics at the tax service. The period (the one the
 * service's calendar points to, or the other of the two shown), its state as a tag (未统计 / 已申请 /
 * 已确认), the figures by invoice kind with a 合计 row (抵扣统计 adds the passenger transport line and the
 * period's deductible total), a chart of the tax by kind, the actions the state allows — each asked first,
 * naming the period and what it locks — and the Excel export. A refusal (不能重复确认, 当前月与属期相等时
 * 不符合确认条件, 已确认统计不能撤销 …) is shown on the page as the server words it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Input, Modal, Popconfirm, Row, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { PeriodStatState, STAT_CONFIRM_REASON_MAX, StatAction, type StatActionCode, type StatKindFigure, type StatView } from '@zhyy/shared';
import { ApiError } from '../../../api/errors';
import { EChart } from '../../../components/EChart';
import { ExportButton } from '../../../components/ExportButton';
import { formatDateTime } from '../../../components/format';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { periodText } from '../deduction/PeriodHeader';
import { statApi, STAT_KEY, type StatScope } from './api';
import { taxByKindOption } from './charts';
import { StatCompare } from './StatCompare';
import { SimOutsideBox } from './SimOutsideBox';
import '../../../components/listPage.css';
import '../../common/ledger.css';

const STATE_COLOURS: Record<number, string> = { 0: 'default', 1: 'processing', 2: 'success' };
const ORDER: StatActionCode[] = ['apply', 'confirm', 'revokeApply', 'revokeConfirm'];
const NAMES: Record<StatScope, string> = { deduction: '抵扣统计', rebate: '退税统计' };

export function StatStateTag({ state }: { state: number }) {
  return <Tag color={STATE_COLOURS[state] ?? 'default'} data-testid="stat-state">{PeriodStatState.label(state)}</Tag>;
}

/** What the confirmation of an action says: the period and what it changes or locks. */
export function actionQuestion(scope: StatScope, action: StatActionCode, period: string): { title: string; description: string } {
  const p = periodText(period);
  const name = NAMES[scope];
  switch (action) {
    case 'apply':
      return { title: `申请${p}的${name}？`, description: `税务端将按本期已勾选的发票统计；申请后${p}的${scope === 'deduction' ? '抵扣、不抵扣' : '退税'}勾选将被冻结，撤销申请前不能勾选或撤销勾选。` };
    case 'confirm':
      return {
        title: `确认${p}的${name}？`,
        description: scope === 'deduction' ? `确认后${p}的勾选将被锁定，不能再勾选或撤销勾选；统计结果作为本期申报抵扣的依据。` : `确认后${p}的退税统计结果作为退税申报的依据。`,
      };
    case 'revokeApply':
      return { title: `撤销${p}的${name}申请？`, description: '撤销后统计状态回到未统计，勾选重新开放，可继续勾选后重新申请。' };
    case 'revokeConfirm':
      return { title: `撤销${p}的${name}确认？`, description: scope === 'deduction' ? `撤销后统计状态回到已申请，${p}的勾选重新开放。` : '撤销后统计状态回到已申请。' };
  }
}

const lastActionText = (v: StatView) => {
  const a = v.lastAction;
  if (!a) return '—';
  const result = a.result === 1 ? '成功' : a.result === 2 ? `失败：${a.message}` : '处理中';
  const over = a.reason ? `（${a.differences ?? 0}处差异，原因：${a.reason}）` : '';
  return `${a.userName} ${formatDateTime(a.at)} ${StatAction.label(a.action)}${result}${over}`;
};

export function StatPage({ scope }: { scope: StatScope }) {
  const client = useQueryClient();
  const [period, setPeriod] = useState<string | undefined>();
  const [refusal, setRefusal] = useState('');
  const q = useQuery({ queryKey: [...STAT_KEY, scope, period ?? ''], queryFn: () => statApi.view(scope, period) });
  const v = q.data;
  const [reasonOpen, setReasonOpen] = useState(false);
  const [reason, setReason] = useState('');
  const failed = (err: unknown) => {
    setRefusal(err instanceof ApiError || err instanceof Error ? err.message : '操作失败，请稍后重试');
    void client.invalidateQueries({ queryKey: [...STAT_KEY, scope] });
  };
  const act = useMutation({
    mutationFn: ({ action, reason: why }: { action: StatActionCode; reason?: string }) => (why ? statApi.act(scope, action, v!.period, why) : statApi.act(scope, action, v!.period)),
    onMutate: () => setRefusal(''),
    onSuccess: (next, { action }) => {
      client.setQueryData([...STAT_KEY, scope, period ?? ''], next);
      void client.invalidateQueries({ queryKey: ['income', 'deduction'] });
      setReasonOpen(false);
      setReason('');
      void feedback().message.success(`${StatAction.label(action)}成功`);
    },
    onError: failed,
  });
  // 采纳税务端 (统计对比): the ledger takes the bureau's state of the chosen lines, or of all adoptable ones.
  const adopt = useMutation({
    mutationFn: (keys?: string[]) => statApi.adopt(scope, v!.period, keys),
    onMutate: () => setRefusal(''),
    onSuccess: (next) => {
      client.setQueryData([...STAT_KEY, scope, period ?? ''], next);
      void client.invalidateQueries({ queryKey: ['income', 'deduction'] });
      void feedback().message.success('已采纳税务端勾选状态');
    },
    onError: failed,
  });
  // A comparison that could not be made counts as open: 确认统计 then asks for a reason too (the server does).
  const openDifferences = v?.comparison?.open ?? (v?.comparisonError ? 1 : 0);
  const deduction = scope === 'deduction';
  const columns: TableColumnsType<StatKindFigure> = [
    { title: '发票类型', dataIndex: 'kindLabel', key: 'kind', width: 240 },
    { title: '份数', dataIndex: 'count', key: 'count', width: 90, align: 'right' },
    { title: '金额', key: 'amount', width: 160, align: 'right', render: (_, r) => <Money fen={r.amountExcludingTax} /> },
    { title: '税额', key: 'tax', width: 160, align: 'right', render: (_, r) => <Money fen={r.tax} /> },
    { title: deduction ? '有效抵扣税额' : '退税税额', key: 'effectiveTax', width: 160, align: 'right', render: (_, r) => <Money fen={r.effectiveTax} strong /> },
  ];
  const summary = (d: StatView) => (
    <Table.Summary fixed="bottom">
      <Table.Summary.Row className="ledger-totals" data-testid="stat-totals">
        <Table.Summary.Cell index={0}><Typography.Text strong>合计</Typography.Text></Table.Summary.Cell>
        <Table.Summary.Cell index={1} align="right">{d.totals.count}</Table.Summary.Cell>
        <Table.Summary.Cell index={2} align="right"><Money fen={d.totals.amountExcludingTax} strong /></Table.Summary.Cell>
        <Table.Summary.Cell index={3} align="right"><Money fen={d.totals.tax} strong /></Table.Summary.Cell>
        <Table.Summary.Cell index={4} align="right"><Money fen={d.totals.effectiveTax} strong /></Table.Summary.Cell>
      </Table.Summary.Row>
      {d.transport ? (
        <>
          <Table.Summary.Row data-testid="stat-transport">
            <Table.Summary.Cell index={0}>旅客运输服务（计算抵扣）</Table.Summary.Cell>
            <Table.Summary.Cell index={1} align="right">{d.transport.count}</Table.Summary.Cell>
            <Table.Summary.Cell index={2} align="right"><Money fen={d.transport.basis} /></Table.Summary.Cell>
            <Table.Summary.Cell index={3} align="right"><Money fen={d.transport.tax} /></Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right"><Money fen={d.transport.tax} strong /></Table.Summary.Cell>
          </Table.Summary.Row>
          <Table.Summary.Row className="ledger-totals" data-testid="stat-deductible">
            <Table.Summary.Cell index={0} colSpan={4}><Typography.Text strong>本期可抵扣税额合计（勾选有效税额 + 旅客运输服务）</Typography.Text></Table.Summary.Cell>
            <Table.Summary.Cell index={4} align="right"><Money fen={d.deductibleTotal} strong /></Table.Summary.Cell>
          </Table.Summary.Row>
        </>
      ) : null}
    </Table.Summary>
  );
  return (
    <div className="list-page" data-testid={`stat-page-${scope}`}>
      <Card size="small" data-testid="stat-period">
        {!v ? (
          q.isError ? <Alert type="error" showIcon title="统计结果获取失败，请稍后重试" /> : <Typography.Text type="secondary">正在获取统计结果…</Typography.Text>
        ) : (
          <Descriptions size="small" column={{ xs: 1, md: 3 }}>
            <Descriptions.Item label="税款所属期">
              <Select
                size="small"
                value={v.period}
                style={{ width: 200 }}
                aria-label="税款所属期"
                onChange={(p) => { setRefusal(''); setPeriod(p); }}
                options={v.periods.map((p) => ({ value: p.period, label: `${periodText(p.period)}（${PeriodStatState.label(p.state)}）` }))}
                data-testid="stat-period-select"
              />
            </Descriptions.Item>
            <Descriptions.Item label="统计状态"><StatStateTag state={v.state} /></Descriptions.Item>
            <Descriptions.Item label="统计截止">{v.deadlineText}</Descriptions.Item>
            <Descriptions.Item label="当前勾选所属期">{periodText(v.tickPeriod)}</Descriptions.Item>
            <Descriptions.Item label={deduction ? '本期可抵扣税额' : '本期退税税额'}><span data-testid="stat-total"><Money fen={v.deductibleTotal} strong /></span></Descriptions.Item>
            <Descriptions.Item label="最近操作"><span data-testid="stat-last">{lastActionText(v)}</span></Descriptions.Item>
            {v.apart?.length ? (
              <Descriptions.Item label="另行勾选（不计入统计）">
                <Space size={12} wrap data-testid="stat-apart">
                  {v.apart.map((a) => <span key={a.label}>{a.label} {a.count} 份 税额 <Money fen={a.tax} /></span>)}
                </Space>
              </Descriptions.Item>
            ) : null}
          </Descriptions>
        )}
        {v?.notice ? <Alert type="warning" showIcon title={v.notice} data-testid="stat-notice" style={{ marginTop: 8 }} /> : null}
        {refusal ? <Alert type="error" showIcon closable onClose={() => setRefusal('')} title={refusal} data-testid="stat-refusal" style={{ marginTop: 8 }} /> : null}
        <Space wrap style={{ marginTop: 12 }}>
          {ORDER.map((action) => {
            const allowed = !!v?.actions.includes(action);
            const ask = v ? actionQuestion(scope, action, v.period) : { title: '', description: '' };
            return (
              <Space key={action} size={4}>
              {action === 'confirm' && openDifferences > 0 ? (
                // Open differences: 确认统计 needs the clerk's reason (recorded with the action).
                <Button type="primary" disabled={!allowed} loading={act.isPending && act.variables?.action === action} onClick={() => setReasonOpen(true)} data-testid={`stat-${action}`}>
                  {StatAction.label(action)}
                </Button>
              ) : (
              <Popconfirm title={ask.title} description={ask.description} okText="确定" cancelText="取消" disabled={!allowed || act.isPending} onConfirm={() => act.mutate({ action })}>
                <Button type={action === 'apply' || action === 'confirm' ? 'primary' : 'default'} danger={action === 'revokeConfirm'} disabled={!allowed} loading={act.isPending && act.variables?.action === action} data-testid={`stat-${action}`}>
                  {StatAction.label(action)}
                </Button>
              </Popconfirm>
              )}
              {v?.unavailable?.[action] ? <Typography.Text type="secondary" data-testid={`stat-${action}-why`}>{v.unavailable[action]}</Typography.Text> : null}
              </Space>
            );
          })}
          <ExportButton fileName={`${NAMES[scope]}${v?.period ?? ''}`} run={() => statApi.exportFigures(scope, v!.period)} disabled={!v} />
        </Space>
      </Card>
      {v?.simulator && v.state === 0 ? <SimOutsideBox scope={scope} onDone={() => void client.invalidateQueries({ queryKey: [...STAT_KEY, scope] })} /> : null}
      {v?.comparisonError ? <Alert type="warning" showIcon title={v.comparisonError} data-testid="stat-compare-error" /> : null}
      {v?.comparison ? (
        <StatCompare comparison={v.comparison} effectiveLabel={deduction ? '有效抵扣税额' : '退税税额'} canAdopt={v.state === 1} busy={adopt.isPending} onAdopt={(keys) => adopt.mutate(keys)} />
      ) : null}
      <Modal
        open={reasonOpen}
        title={v ? actionQuestion(scope, 'confirm', v.period).title : ''}
        okText="确认统计"
        cancelText="取消"
        okButtonProps={{ disabled: !reason.trim(), loading: act.isPending, 'data-testid': 'stat-reason-ok' } as never}
        onOk={() => act.mutate({ action: 'confirm', reason: reason.trim() })}
        onCancel={() => setReasonOpen(false)}
        destroyOnHidden
      >
        <Alert type="warning" showIcon title={v?.comparisonError ? v.comparisonError : `税务端统计与本系统勾选记录仍有${openDifferences}处差异`} description="建议先在统计对比中采纳税务端状态；如确需按税务端统计确认，请填写原因（将记录在统计操作中）。" style={{ marginBottom: 12 }} />
        <Input.TextArea rows={3} maxLength={STAT_CONFIRM_REASON_MAX} showCount value={reason} onChange={(e) => setReason(e.target.value)} placeholder="确认原因" aria-label="确认原因" data-testid="stat-reason" />
      </Modal>
      <Row gutter={12}>
        <Col xs={24} xl={14}>
          <Card size="small" className="list-page-table" title={`统计结果（按发票类型）`}>
            <Table<StatKindFigure>
              rowKey="kind"
              size="middle"
              columns={columns}
              dataSource={v?.rows ?? []}
              loading={q.isFetching}
              pagination={false}
              locale={{ emptyText: <Empty description={q.isError ? '加载失败，请稍后重试' : '本期没有已勾选的发票'} /> }}
              summary={() => (v ? summary(v) : null)}
            />
          </Card>
        </Col>
        <Col xs={24} xl={10}>
          <Card size="small" title="税额（按发票类型）">
            {v?.rows.length ? <EChart option={taxByKindOption(v.rows, deduction ? '有效抵扣税额' : '退税税额')} height={260} testId="stat-chart" /> : <Empty description={q.isLoading ? '加载中…' : '本期没有已勾选的发票'} />}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
