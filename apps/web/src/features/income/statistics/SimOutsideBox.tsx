/**
 * 模拟税务端操作 (issue 32 item 1; only while the tax gateway is the simulator, for demos and tests): the clerk ticks
 * or undoes invoices on the bureau's platform, outside the product — by their numbers — so that 统计对比 has
 * something to show after 申请统计. Like the accounting simulator's 模拟会计删除凭证 on 新增撤销.
 */
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Card, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { ApiError } from '../../../api/errors';
import { statApi, type StatScope } from './api';

/** The numbers typed, split on spaces, commas and new lines. */
export const numbersOf = (text: string) => [...new Set(text.split(/[\s,，、]+/).map((x) => x.trim()).filter(Boolean))];

export function SimOutsideBox({ scope, onDone }: { scope: StatScope; onDone: () => void }) {
  const [text, setText] = useState('');
  const [note, setNote] = useState<{ ok: boolean; words: string } | null>(null);
  const run = useMutation({
    mutationFn: (action: 'tick' | 'untick') => statApi.outsideTick(scope, { numbers: numbersOf(text), action, vatUsage: scope === 'deduction' ? 1 : 2 }),
    onMutate: () => setNote(null),
    onSuccess: (a, action) => {
      setNote({ ok: a.accepted > 0, words: `模拟税务端${action === 'tick' ? '勾选' : '撤销勾选'}：成功 ${a.accepted} 张（税款所属期 ${a.period}）` });
      onDone();
    },
    onError: (e) => setNote({ ok: false, words: e instanceof ApiError || e instanceof Error ? e.message : '操作失败' }),
  });
  const none = numbersOf(text).length === 0;
  return (
    <Card size="small" title="模拟税务端操作（仅连接模拟税务端时可用，演示和测试用）" data-testid="stat-sim-box">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        以办税人员身份在税务端平台（本系统之外）{scope === 'deduction' ? '勾选抵扣' : '勾选退税'}或撤销勾选，本系统勾选记录不变；申请统计后可在统计对比中看到差异。
      </Typography.Paragraph>
      <Space wrap>
        <Input style={{ width: 360 }} value={text} onChange={(e) => setText(e.target.value)} placeholder="发票号码（数电号码或代码+号码，多个以空格分隔）" aria-label="模拟税务端发票号码" data-testid="stat-sim-numbers" />
        <Button disabled={none} loading={run.isPending && run.variables === 'tick'} onClick={() => run.mutate('tick')} data-testid="stat-sim-tick">在税务端勾选</Button>
        <Button disabled={none} loading={run.isPending && run.variables === 'untick'} onClick={() => run.mutate('untick')} data-testid="stat-sim-untick">在税务端撤销勾选</Button>
      </Space>
      {note ? <Alert type={note.ok ? 'success' : 'error'} showIcon title={note.words} style={{ marginTop: 8 }} data-testid="stat-sim-note" /> : null}
    </Card>
  );
}
