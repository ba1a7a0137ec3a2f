/**
 * 业绩文件导出 (/tender/file/performance-file-export): the contracts handed over by 业绩核查 (the URL's ids
 * and rule), re-checked on arrival, a title, PDF or zip and the watermark, then 生成 → the job panel's
 * progress → 下载. Without contracts it sends the user to 业绩核查.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Space } from 'antd';
import { useLocation, useNavigate } from 'react-router';
import { tenderExportApi } from '../../../api/tender-export';
import { ExportJobPanel } from './ExportJobPanel';
import { ExportOptions } from './ExportOptions';
import { readPerformanceSearch, splitChecked } from './exportLogic';
import { PerformanceResults } from './PerformanceResults';
import { readRule, RuleFields } from './PerformanceRule';
import { useRuleInput } from './PerformanceCheckPage';

export default function PerformanceExportPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const handed = readPerformanceSearch(location.search);
  const { rule, setRule } = useRuleInput(handed);
  const parsed = readRule(rule);
  const check = useQuery({
    queryKey: ['tender', 'export', 'performance-check', handed.ids, parsed.ok ? parsed.rule : null],
    queryFn: () => tenderExportApi.performanceCheck({ contractIds: handed.ids, ...(parsed.ok ? parsed.rule : { deadline: '', years: 0, thresholdFen: 0 }) }),
    enabled: handed.ids.length > 0 && parsed.ok,
  });
  const rows = check.data ?? [];
  const { bad } = splitChecked(rows);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      {!handed.ids.length ? (
        <Card size="small">
          <Empty description="还没有选择合同，请先在业绩核查中选择并核查">
            <Button type="primary" onClick={() => navigate('/tender/file/performance-check')}>
              去业绩核查
            </Button>
          </Empty>
        </Card>
      ) : (
        <>
          <Card title="核查条件" size="small">
            <RuleFields value={rule} onChange={setRule} />
            {!parsed.ok && <Alert type="error" showIcon title={parsed.error} style={{ marginTop: 12 }} />}
          </Card>
          <Card title={`所选合同（${handed.ids.length}）`} size="small" extra={<Button onClick={() => navigate('/tender/file/performance-check')}>重新选择</Button>}>
            {bad.length > 0 && <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={`有${bad.length}个合同未通过核查，导出时需确认`} />}
            <PerformanceResults rows={rows} loading={check.isLoading} />
          </Card>
          <Card title="导出设置" size="small">
            <ExportOptions
              kind="performance"
              defaultTitle="业绩证明材料"
              count={check.isSuccess && parsed.ok ? rows.length : 0}
              failed={bad.length}
              create={(o) => (parsed.ok ? tenderExportApi.performanceCreate({ contractIds: handed.ids, ...parsed.rule, ...o }) : Promise.reject(new Error(parsed.error)))}
            />
          </Card>
        </>
      )}
      <ExportJobPanel kind="performance" />
    </Space>
  );
}
