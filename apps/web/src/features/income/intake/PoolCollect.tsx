/**
 * 采集 on 进项票池 (roles 1, 13): a dialog with the window of issue dates (default: the first day of last
 * month through today, Asia/Shanghai; at most 366 days, checked here with the server's message), then the
 * background task's progress, polled from /collect-progress until it has finished, with its final
 * message; the list is refreshed after. A refusal (another collection running, a bad window) is shown
 * in the dialog.
 */
import { CloudDownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Descriptions, Form, Modal, Progress, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useRef, useState } from 'react';
import type { CollectTask } from '@zhyy/shared';
import { incomeApi } from '../../../api/income';
import { shanghaiNow } from '../../../utils/time';
import { collectPercent, collectWindowError, defaultCollectRange } from './collectRules';
import { POOL_KEY } from '../pool/request';

/** How often the dialog asks for the progress. */
export const COLLECT_POLL_MS = 1000;

const ALERT: Record<string, 'success' | 'error' | 'warning' | 'info'> = { done: 'success', failed: 'error', interrupted: 'warning', running: 'info' };

/** The counts of a task and, once finished, its final message. */
export function CollectProgressView({ task }: { task: CollectTask }) {
  const percent = collectPercent(task);
  const status = !task.finished ? 'active' : task.state === 'done' ? 'success' : 'exception';
  return (
    <div data-testid="collect-progress">
      <Typography.Paragraph>
        开票日期 {task.from} 至 {task.to}：{task.finished ? task.stateLabel : task.total ? `正在处理第 ${task.seen} / ${task.total} 张` : '正在向税务数字账户查询…'}
      </Typography.Paragraph>
      <Progress percent={percent} status={status} format={(p) => `${p ?? 0}%`} data-testid="collect-percent" />
      <Descriptions
        size="small" column={3} style={{ marginTop: 8 }} data-testid="collect-counts"
        items={[
          { key: 'pages', label: '已查询页数', children: task.pages },
          { key: 'total', label: '税务端张数', children: task.total },
          { key: 'seen', label: '已处理', children: task.seen },
          { key: 'created', label: '新增', children: task.created },
          { key: 'merged', label: '合并', children: task.merged },
          { key: 'flagged', label: '标记异常', children: task.flagged },
          { key: 'changed', label: '状态更新', children: task.stateChanged },
          { key: 'failed', label: '未入池', children: task.failed },
        ]}
      />
      {task.finished ? (
        <Alert
          style={{ marginTop: 8 }} showIcon type={ALERT[task.state] ?? 'info'} data-testid="collect-message"
          title={task.message}
          description={task.failures.length ? <ul style={{ paddingLeft: 18, margin: 0 }}>{task.failures.map((f) => <li key={f}>{f}</li>)}</ul> : undefined}
        />
      ) : null}
    </div>
  );
}

interface Values {
  range?: [Dayjs | null, Dayjs | null] | null;
}

/** Polls a task until it has finished; `onFinished` once when it has. */
export function useCollectTask(taskId: string | null, onFinished: (t: CollectTask) => void) {
  const q = useQuery({
    queryKey: [...POOL_KEY, 'collect-task', taskId],
    queryFn: () => incomeApi.collectProgress(taskId!),
    enabled: !!taskId,
    refetchInterval: (query) => (query.state.data?.finished ? false : COLLECT_POLL_MS),
    gcTime: 0,
  });
  // Once per task, when its first finished progress arrives.
  const told = useRef<string | null>(null);
  const finished = q.data?.finished ? q.data : null;
  useEffect(() => {
    if (finished && told.current !== finished.taskId) {
      told.current = finished.taskId;
      onFinished(finished);
    }
  }, [finished, onFinished]);
  return q;
}

export function PoolCollectButton() {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<Values>();
  const [error, setError] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const [task, setTask] = useState<CollectTask | null>(null);
  const client = useQueryClient();
  const progress = useCollectTask(task?.taskId ?? null, () => void client.invalidateQueries({ queryKey: POOL_KEY, predicate: (q) => q.queryKey[2] !== 'collect-task' }));
  const shown = progress.data ?? task;
  const running = !!shown && !shown.finished;

  const openDialog = () => {
    setTask(null);
    setError(null);
    form.setFieldsValue({ range: defaultCollectRange() });
    setOpen(true);
  };
  const start = async () => {
    const range = form.getFieldValue('range') as Values['range'];
    const bad = collectWindowError(range);
    if (bad) return setError(bad);
    setError(null);
    setStarting(true);
    try {
      const res = await incomeApi.collect(range![0]!.format('YYYY-MM-DD'), range![1]!.format('YYYY-MM-DD'));
      setTask(res.r ?? null);
    } catch (e) {
      setError(e instanceof Error ? e.message : '采集失败，请稍后重试');
    } finally {
      setStarting(false);
    }
  };
  const today = shanghaiNow().endOf('day');
  return (
    <>
      <Button icon={<CloudDownloadOutlined />} onClick={openDialog} data-testid="pool-collect">采集</Button>
      <Modal
        open={open} title="从税务数字账户采集进项发票" destroyOnHidden maskClosable={false} width={620}
        onCancel={() => setOpen(false)}
        footer={
          shown ? (
            <Button type="primary" onClick={() => setOpen(false)} data-testid="collect-close">{running ? '后台继续，关闭窗口' : '关闭'}</Button>
          ) : (
            <Space>
              <Button onClick={() => setOpen(false)}>取消</Button>
              <Button type="primary" loading={starting} onClick={() => void start()} data-testid="collect-start">开始采集</Button>
            </Space>
          )
        }
      >
        {shown ? (
          <>
            <CollectProgressView task={shown} />
            {progress.isError ? <Alert type="warning" showIcon style={{ marginTop: 8 }} title="进度暂时无法读取，正在重试" /> : null}
          </>
        ) : (
          <Form form={form} name="income-collect" layout="vertical" data-testid="collect-form">
            <Form.Item name="range" label="开票日期区间" extra="每次最多366天；税务端的发票逐张进入票池，已在票池的合并，状态变化的更新。" required>
              <DatePicker.RangePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(today)} onChange={() => setError(null)} data-testid="collect-range" />
            </Form.Item>
            {error ? <Alert type="error" showIcon title={error} data-testid="collect-error" /> : null}
          </Form>
        )}
      </Modal>
    </>
  );
}
