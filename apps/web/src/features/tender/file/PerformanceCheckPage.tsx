/**
 * 业绩核查 (/tender/file/performance-check, roles 1, 6, 9, 23): pick contracts (number/name, customer,
 * type), set the tender's deadline, window and least amount (defaults from 投标设置), check them — per
 * contract what is missing (pages, acceptance day, amount) — and send those that pass on to 业绩文件导出
 * through the URL.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Select, Space, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { formatFen, type PerformanceCheckRow, type TenderContractRow } from '@zhyy/shared';
import { tenderContractApi } from '../../../api/tender-contracts';
import { tenderExportApi } from '../../../api/tender-export';
import { CONTRACT_TYPE_OPTIONS, Money, PagesTag } from '../contracts/common';
import { performanceExportUrl, splitChecked } from './exportLogic';
import { useTenderSettings } from './ExportOptions';
import { PerformanceResults } from './PerformanceResults';
import { pickTableProps } from './pickParts';
import { readRule, RuleFields, todayDay } from './PerformanceRule';

type RuleInput = { deadline: string | null; years: number | null; threshold: string };

export function useRuleInput(initial?: Partial<{ deadline: string; years: number; thresholdFen: number }>) {
  const settings = useTenderSettings();
  const [rule, setRule] = useState<RuleInput>({ deadline: initial?.deadline ?? todayDay(), years: initial?.years ?? null, threshold: initial?.thresholdFen !== undefined ? formatFen(initial.thresholdFen) : '' });
  const [touched, setTouched] = useState(initial?.years !== undefined);
  useEffect(() => {
    if (settings.data && !touched) {
      setRule((r) => ({ ...r, years: settings.data.windowYears, threshold: settings.data.thresholdFen ? formatFen(settings.data.thresholdFen) : '' }));
      setTouched(true);
    }
  }, [settings.data, touched]);
  return { rule, setRule: (r: RuleInput) => (setTouched(true), setRule(r)) };
}

export default function PerformanceCheckPage() {
  const navigate = useNavigate();
  const [filter, setFilter] = useState<{ keyword: string; customer: string; contractType?: number }>({ keyword: '', customer: '' });
  const [page, setPage] = useState({ pageIndex: 1, pageSize: 10 });
  const [picked, setPicked] = useState<string[]>([]);
  const { rule, setRule } = useRuleInput();
  const [checked, setChecked] = useState<{ rows: PerformanceCheckRow[]; rule: ReturnType<typeof readRule> } | null>(null);
  const [checking, setChecking] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const list = useQuery({
    queryKey: ['tender', 'contracts', 'pick', filter, page],
    queryFn: () => tenderContractApi.list({ ...page, keyword: filter.keyword || undefined, customer: filter.customer || undefined, contractType: filter.contractType }),
  });

  const check = async () => {
    const r = readRule(rule);
    if (!r.ok) return setError(r.error);
    if (!picked.length) return setError('请至少选择一个合同');
    setError(null);
    setChecking(true);
    try {
      setChecked({ rows: await tenderExportApi.performanceCheck({ contractIds: picked, ...r.rule }), rule: r });
    } catch {
      // Shown by the API client.
    } finally {
      setChecking(false);
    }
  };
  const split = splitChecked(checked?.rows ?? []);

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card title="核查条件" size="small">
        <RuleFields value={rule} onChange={setRule} />
      </Card>
      <Card title="选择合同" size="small" extra={<Typography.Text type="secondary">已选 {picked.length} 个</Typography.Text>}>
        <Space wrap style={{ marginBottom: 12 }}>
          <Input.Search placeholder="合同编号或名称" allowClear style={{ width: 220 }} onSearch={(keyword) => (setFilter((f) => ({ ...f, keyword: keyword.trim() })), setPage((p) => ({ ...p, pageIndex: 1 })))} aria-label="合同编号或名称" />
          <Input.Search placeholder="客户" allowClear style={{ width: 180 }} onSearch={(customer) => (setFilter((f) => ({ ...f, customer: customer.trim() })), setPage((p) => ({ ...p, pageIndex: 1 })))} aria-label="客户" />
          <Select placeholder="合同类型" allowClear style={{ width: 140 }} options={CONTRACT_TYPE_OPTIONS} onChange={(t?: number) => (setFilter((f) => ({ ...f, contractType: t })), setPage((p) => ({ ...p, pageIndex: 1 })))} aria-label="合同类型" />
          <Button onClick={() => setPicked([])} disabled={!picked.length}>
            清空已选
          </Button>
        </Space>
        <Table<TenderContractRow>
          rowKey="id"
          size="small"
          loading={list.isLoading}
          dataSource={list.data?.items ?? []}
          {...pickTableProps({ picked, onPick: setPicked, page, onPage: setPage, total: list.data?.total ?? 0 })}
          locale={{ emptyText: '没有符合条件的合同' }}
          scroll={{ x: 900 }}
          columns={[
            { title: '合同编号', dataIndex: 'code', width: 170 },
            { title: '合同名称', dataIndex: 'name', ellipsis: true },
            { title: '客户', dataIndex: 'customer', width: 160, ellipsis: true },
            { title: '金额（元）', dataIndex: 'amount', width: 130, align: 'right', render: (f: number) => <Money fen={f} /> },
            { title: '竣工验收', dataIndex: 'acceptedOn', width: 110 },
            { title: '附件', dataIndex: 'missingPages', width: 80, render: (m: number) => <PagesTag missing={m} /> },
          ]}
        />
      </Card>
      {error && <Alert type="error" showIcon title={error} />}
      <Card
        title="核查结果"
        size="small"
        extra={
          <Space>
            <Button type="primary" onClick={() => void check()} loading={checking}>
              核查
            </Button>
            <Button disabled={!split.good.length || !checked?.rule.ok} onClick={() => checked?.rule.ok && navigate(performanceExportUrl(split.good.map((r) => r.id), checked.rule.rule))}>
              导出通过的合同（{split.good.length}）
            </Button>
          </Space>
        }
      >
        {checked && (
          <Typography.Paragraph>
            共 {checked.rows.length} 个合同，<Typography.Text type="success">通过 {split.good.length} 个</Typography.Text>，<Typography.Text type="danger">未通过 {split.bad.length} 个</Typography.Text>
          </Typography.Paragraph>
        )}
        <PerformanceResults rows={checked?.rows ?? []} loading={checking} />
      </Card>
    </Space>
  );
}
