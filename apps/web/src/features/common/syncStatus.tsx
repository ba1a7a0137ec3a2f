/**
 * How a sync log row's state reads, on both sync log screens: 成功, 失败, or 进行中/结果未知 (the row
 * is written before the outside call and completed after it; one left pending by an interruption has
 * an unknown result), and the tag of a row a client reported itself.
 */
import { Alert, Tag, Tooltip } from 'antd';
import { SyncLogStatus } from '@zhyy/shared';

const PENDING_HINT = '请求已发出，尚未记录结果：可能仍在进行，也可能因服务中断而结果未知，请到对方系统核实';

export function SyncStatusTag({ status }: { status: number }) {
  if (status === SyncLogStatus.failure) return <Tag color="red">失败</Tag>;
  if (status === SyncLogStatus.pending) {
    return (
      <Tooltip title={PENDING_HINT}>
        <Tag color="gold">进行中/结果未知</Tag>
      </Tooltip>
    );
  }
  return <Tag color="green">成功</Tag>;
}

/** The failure or pending notice at the top of a sync detail. */
export function SyncStatusAlert({ status, memo }: { status: number; memo: string }) {
  if (status === SyncLogStatus.failure) return <Alert type="error" showIcon title="本次同步失败" description={memo} style={{ marginBottom: 12 }} />;
  if (status === SyncLogStatus.pending) return <Alert type="warning" showIcon title="本次同步结果未知" description={PENDING_HINT} style={{ marginBottom: 12 }} />;
  return null;
}

export const SYNC_STATUS_OPTIONS = [
  { value: SyncLogStatus.failure, label: '失败' },
  { value: SyncLogStatus.success, label: '成功' },
  { value: SyncLogStatus.pending, label: '结果未知' },
];

/** Marks a log row the client reported itself (not recorded by the server where it happened). */
export const ClientReportedTag = () => (
  <Tooltip title="由浏览器端上报，非系统自动记录">
    <Tag data-testid="client-reported">客户端上报</Tag>
  </Tooltip>
);
