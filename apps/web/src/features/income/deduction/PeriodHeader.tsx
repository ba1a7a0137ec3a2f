/** The ticking pages' header: the current tax period from the tax service, the deadline with a live countdown, the window, the statistics state, ticked against candidates. */
import { Alert, Card, Descriptions, Space, Spin, Switch, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { PeriodStatState, type TickPeriodInfo } from '@zhyy/shared';
import { Money } from '../../common/Money';

/** 剩余 3 天 04:05:06, or null once the deadline has passed. */
export function countdown(deadline: string, now: number): string | null {
  const ms = Date.parse(deadline) - now;
  if (!(ms > 0)) return null;
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const hms = [Math.floor((s % 86400) / 3600), Math.floor((s % 3600) / 60), s % 60].map((n) => String(n).padStart(2, '0')).join(':');
  return `剩余 ${d > 0 ? `${d} 天 ` : ''}${hms}`;
}

/** The clock, read again every intervalMs (the countdown each second; the page's closed state every few seconds, so the list is not drawn again each second). */
export function useNow(intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(t);
  }, [intervalMs]);
  return now;
}

export const periodText = (p: string) => (p.length === 6 ? `${p.slice(0, 4)}年${p.slice(4)}月` : p);

/** Why ticking is closed now (the server's reason, or the deadline passed while the page was open), '' when open. */
export function closedReasonOf(info: TickPeriodInfo | undefined, now: number): string {
  if (!info) return '';
  if (!info.open) return info.closedReason || `税款所属期${info.period}不能勾选`;
  if (countdown(info.deadline, now) === null) return `税款所属期${info.period}的勾选截止时间（${info.deadlineText}）已过`;
  return '';
}

/** How far the tax service's clock is ahead of the browser's (ms), from its answer and when it arrived. */
export const serviceSkew = (info: TickPeriodInfo | undefined, receivedAt: number): number => (info?.serviceNow && receivedAt ? Date.parse(info.serviceNow) - receivedAt : 0);

export function PeriodHeader({ info, loading, failed, closedReason, bookedOnly, onBookedOnly, savingSetting, skewMs = 0, countedLabel = '本期已勾选' }: {
  info?: TickPeriodInfo;
  /** What `ticked` counts (本期已勾选抵扣: the same figures as 抵扣统计); the other usages are shown apart. */
  countedLabel?: string;
  /** serviceSkew: the countdown runs on the tax service's clock. */
  skewMs?: number;
  loading: boolean;
  failed: boolean;
  closedReason: string;
  bookedOnly?: boolean;
  onBookedOnly: (v: boolean) => void;
  savingSetting: boolean;
}) {
  const now = useNow() + skewMs;
  if (!info) {
    return (
      <Card size="small" data-testid="tick-period">
        {failed ? <Alert type="error" showIcon title="税款所属期获取失败，请稍后重试" /> : <Spin spinning={loading}><Typography.Text type="secondary">正在获取税款所属期…</Typography.Text></Spin>}
      </Card>
    );
  }
  const left = countdown(info.deadline, now);
  return (
    <Card size="small" data-testid="tick-period">
      <Descriptions size="small" column={{ xs: 1, md: 3 }}>
        <Descriptions.Item label="当前税款所属期"><Typography.Text strong>{periodText(info.period)}</Typography.Text></Descriptions.Item>
        <Descriptions.Item label="勾选截止">
          <Space>
            <span>{info.deadlineText}</span>
            <Typography.Text type={left ? 'warning' : 'danger'} data-testid="tick-countdown">{left ?? '已截止'}</Typography.Text>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="可勾选开票日期范围">{info.windowFrom} 至 {info.windowTo}</Descriptions.Item>
        <Descriptions.Item label="统计状态">{PeriodStatState.label(info.statState)}</Descriptions.Item>
        <Descriptions.Item label={countedLabel}>
          {/* Items of a Space, not one sentence: a full-width comma right after a figure is drawn over its last pixels (CJK punctuation trimming). */}
          <Space size={12} wrap data-testid="tick-ticked">
            <span>{info.ticked.count} 张</span>
            <span>税额 <Money fen={info.ticked.tax} /></span>
            <span>有效税额 <Money fen={info.ticked.effectiveTax} strong /></span>
          </Space>
        </Descriptions.Item>
        {info.apart?.length ? (
          <Descriptions.Item label="另行勾选（不计入上项）">
            <Space size={12} wrap data-testid="tick-apart">
              {info.apart.map((a) => (
                <span key={a.label}>{a.label} {a.count} 张 税额 <Money fen={a.tax} /></span>
              ))}
            </Space>
          </Descriptions.Item>
        ) : null}
        <Descriptions.Item label="全部候选发票">
          <Space size={12} wrap data-testid="tick-candidates">
            <span>{info.candidates.count} 张</span>
            <span>税额 <Money fen={info.candidates.tax} /></span>
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label="先入账后勾选">
          <Switch size="small" checked={bookedOnly ?? info.tickBookedOnly} loading={savingSetting} onChange={onBookedOnly} data-testid="tick-booked-only" />
        </Descriptions.Item>
      </Descriptions>
      {closedReason ? <Alert type="warning" showIcon title={`当前不能勾选或撤销：${closedReason}`} data-testid="tick-closed" /> : null}
    </Card>
  );
}
