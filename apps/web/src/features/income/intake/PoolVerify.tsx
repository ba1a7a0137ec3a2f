/**
 * 查验 (roles 1, 13): one invoice from its detail page, or the selected rows of a list (at most 50, the
 * server's VerifyBody message). Each result is shown as the server answers it: 一致, 不一致 with the fields
 * that differ (票池 → 税务端), or failed with the reason (5 times a day, 开票次日起, 5 years, the service
 * unreachable: nothing was recorded, it can be repeated). The detail, its verification history and the
 * lists are refreshed after.
 */
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { VerifyBody, VerifyOutcome, type VerifyAnswer, type VerifyInvoiceResult } from '@zhyy/shared';
import { incomeApi } from '../../../api/income';
import { POOL_KEY } from '../pool/request';

/** The word of one result: 一致, 不一致, 查无此票, or 失败. */
export function verifyWord(r: VerifyInvoiceResult): { text: string; colour: string } {
  if (!r.ok) return { text: '查验失败', colour: 'warning' };
  if (r.outcome === 'match' && r.verifyState === 1) return { text: '一致', colour: 'success' };
  if (r.outcome === 'notFound') return { text: VerifyOutcome.label('notFound'), colour: 'error' };
  return { text: '不一致', colour: 'error' };
}

export function VerifyResultTag({ r }: { r: VerifyInvoiceResult }) {
  const w = verifyWord(r);
  return <Tag color={w.colour} data-testid="verify-word">{w.text}</Tag>;
}

/** The fields that differ: 字段：票池 a → 税务端 b. */
export function VerifyFields({ r }: { r: VerifyInvoiceResult }) {
  if (!r.fields.length) return null;
  return (
    <ul style={{ paddingLeft: 18, margin: '4px 0 0' }} data-testid="verify-fields">
      {r.fields.map((f) => (
        <li key={f.field}>
          <Typography.Text type="danger">{f.label}</Typography.Text>：{f.entered ? `票池「${f.entered}」，` : ''}税务端「{f.tax || '—'}」
        </li>
      ))}
    </ul>
  );
}

/** One invoice's result, as the detail page shows it. */
export function VerifyResultView({ r }: { r: VerifyInvoiceResult }) {
  const w = verifyWord(r);
  const type = !r.ok ? 'warning' : w.text === '一致' ? 'success' : 'error';
  return (
    <Alert
      type={type} showIcon data-testid="verify-result"
      title={<Space><VerifyResultTag r={r} />{r.message}</Space>}
      description={
        <>
          <VerifyFields r={r} />
          {!r.ok ? <div>本次查验未记录，可稍后重试。</div> : r.checksToday ? <div>该发票今日已查验 {r.checksToday} 次（每日最多5次）。</div> : null}
        </>
      }
    />
  );
}

/** Refreshes the lists, the details and the verification histories after a 查验. */
function useRefresh() {
  const client = useQueryClient();
  return () => void client.invalidateQueries({ queryKey: POOL_KEY });
}

/** 查验 on the detail page. */
export function PoolVerifyButton({ id }: { id: string }) {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<VerifyInvoiceResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useRefresh();
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const res = await incomeApi.verify([id]);
      setResult(res.r?.results[0] ?? null);
      refresh();
    } catch (e) {
      setError(e instanceof Error ? e.message : '查验失败，请稍后重试');
    } finally {
      setBusy(false);
    }
  };
  const shown = result || error;
  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} loading={busy} onClick={() => void run()} data-testid="pool-verify">查验</Button>
      <Modal
        open={!!shown} title="查验结果" onCancel={() => { setResult(null); setError(null); }} destroyOnHidden
        footer={<Button type="primary" onClick={() => { setResult(null); setError(null); }} data-testid="verify-close">知道了</Button>}
      >
        {result ? <VerifyResultView r={result} /> : error ? <Alert type="error" showIcon title={error} /> : null}
      </Modal>
    </>
  );
}

/** Why the selection cannot be verified (none, or more than 50: VerifyBody's own messages), or null. */
export function batchVerifyError(ids: readonly string[]): string | null {
  if (!ids.length) return '请选择要查验的发票';
  const parsed = VerifyBody.shape.ids.safeParse(ids);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? '请选择要查验的发票');
}

export interface BatchRow {
  id: string;
  number: string;
}

/** 批量查验 of a list's selected rows, with a table of the results. */
export function BatchVerifyButton({ rows, onDone }: { rows: BatchRow[]; onDone?: () => void }) {
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<VerifyAnswer | null>(null);
  const [error, setError] = useState<string | null>(null);
  const refresh = useRefresh();
  // The numbers of the rows sent: the selection is cleared once the answer is in.
  const [numbers, setNumbers] = useState(new Map<string, string>());
  const run = async () => {
    const bad = batchVerifyError(rows.map((r) => r.id));
    if (bad) return setError(bad);
    setBusy(true);
    setError(null);
    setNumbers(new Map(rows.map((r) => [r.id, r.number])));
    try {
      const res = await incomeApi.verify(rows.map((r) => r.id));
      setAnswer(res.r ?? null);
      refresh();
      onDone?.();
    } catch (e) {
      setError(e instanceof Error ? e.message : '查验失败，请稍后重试');
    } finally {
      setBusy(false);
    }
  };
  const close = () => {
    setAnswer(null);
    setError(null);
  };
  return (
    <>
      <Button icon={<SafetyCertificateOutlined />} loading={busy} disabled={!rows.length} onClick={() => void run()} data-testid="pool-batch-verify">
        批量查验{rows.length ? `（${rows.length}）` : ''}
      </Button>
      <Modal
        open={!!answer || !!error} title={answer ? `查验结果：一致 ${answer.matched} 张，不一致 ${answer.mismatched} 张，失败 ${answer.failed} 张` : '批量查验'}
        width={860} onCancel={close} destroyOnHidden footer={<Button type="primary" onClick={close}>知道了</Button>}
      >
        {error ? <Alert type="error" showIcon title={error} data-testid="batch-verify-error" /> : null}
        {answer ? (
          <Table<VerifyInvoiceResult>
            size="small" rowKey="id" pagination={answer.results.length > 10 ? { pageSize: 10 } : false} dataSource={answer.results} data-testid="batch-verify-results"
            columns={[
              { title: '发票号码', key: 'no', width: 200, render: (_, r) => numbers.get(r.id) || '—' },
              { title: '结果', key: 'word', width: 100, render: (_, r) => <VerifyResultTag r={r} /> },
              { title: '说明', key: 'message', render: (_, r) => <>{r.message}<VerifyFields r={r} /></> },
            ]}
          />
        ) : null}
      </Modal>
    </>
  );
}
