/**
 * 入账标识 on 票池发票详情 (issue 14): the invoice's booking state and date, each delivery of the flag to the tax
 * service (已同步 / 待重试（n次，下次 hh:mm） / 失败 with the reason), and 标记入账 (02 or 03), 撤销入账 (06, after a
 * confirmation) and 立即重试. The answers (and refusals) are shown in the server's words; the detail, the lists and
 * this section are loaded again after each.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Empty, Modal, Popconfirm, Radio, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { BookingDeliveryStatus, BookingSourceType, IncomeBookingState, formatShanghai, type BookingDeliveryRow, type BookingInfo } from '@zhyy/shared';
import { bookingApi } from '../../../api/incomeBooking';
import { formatTime } from '../../../components/download';
import { POOL_KEY } from '../pool/request';

const BOOKED = ['02', '03'];

/** A delivery's state in words: 已同步, 待同步, 待重试（n次，下次 hh:mm）, 失败. */
export function deliveryWord(d: Pick<BookingDeliveryRow, 'status' | 'attempts' | 'nextAttemptAt'>): { text: string; colour: string } {
  if (d.status === BookingDeliveryStatus.sent) return { text: '已同步', colour: 'success' };
  if (d.status === BookingDeliveryStatus.failed) return { text: '失败', colour: 'error' };
  if (!d.attempts) return { text: '待同步', colour: 'processing' };
  return { text: `待重试（${d.attempts}次${d.nextAttemptAt ? `，下次 ${formatShanghai(d.nextAttemptAt, 'HH:mm')}` : ''}）`, colour: 'warning' };
}

const label = (state: string) => (IncomeBookingState.has(state) ? IncomeBookingState.label(state) : state || '—');
const source = (d: BookingDeliveryRow) => `${BookingSourceType.has(d.sourceType) ? BookingSourceType.label(d.sourceType) : d.sourceType}${d.sourceNo ? ` ${d.sourceNo}` : ''}`;

const columns = [
  { title: '时间', key: 'at', width: 170, render: (_: unknown, d: BookingDeliveryRow) => formatTime(d.createdAt) },
  { title: '入账标识', key: 'state', width: 200, render: (_: unknown, d: BookingDeliveryRow) => `${d.state} ${label(d.state)}` },
  { title: '来源', key: 'source', width: 160, render: (_: unknown, d: BookingDeliveryRow) => source(d) },
  { title: '操作人', dataIndex: 'requestedBy', width: 100 },
  { title: '同步状态', key: 'status', width: 200, render: (_: unknown, d: BookingDeliveryRow) => { const w = deliveryWord(d); return <Tag color={w.colour} data-testid="booking-delivery-status">{w.text}</Tag>; } },
  { title: '同步时间', key: 'sent', width: 170, render: (_: unknown, d: BookingDeliveryRow) => formatTime(d.sentAt) || '—' },
  { title: '说明', key: 'error', render: (_: unknown, d: BookingDeliveryRow) => (d.lastError ? <Typography.Text type={d.status === 'failed' ? 'danger' : 'warning'}>{d.lastError}</Typography.Text> : '') },
];

export function PoolBooking({ invoiceId }: { invoiceId: string }) {
  const client = useQueryClient();
  const q = useQuery({ queryKey: [...POOL_KEY, 'booking', invoiceId], queryFn: () => bookingApi.info(invoiceId) });
  const [choosing, setChoosing] = useState(false);
  const [state, setState] = useState<'02' | '03'>('02');
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ type: 'success' | 'warning' | 'error'; text: string } | null>(null);
  const run = async (call: () => Promise<{ message?: string; r?: unknown }>, resultOf?: (r: unknown) => { ok: boolean; message: string } | undefined) => {
    setBusy(true);
    setNote(null);
    try {
      const res = await call();
      const one = resultOf?.(res.r);
      setNote(one ? { type: one.ok ? 'success' : 'warning', text: one.message } : { type: 'success', text: res.message || '操作成功' });
    } catch (e) {
      setNote({ type: 'error', text: e instanceof Error ? e.message : '操作失败，请稍后重试' });
    } finally {
      setBusy(false);
      setChoosing(false);
      void client.invalidateQueries({ queryKey: POOL_KEY });
    }
  };
  const first = (r: unknown) => (r as { results?: Array<{ ok: boolean; message: string }> } | undefined)?.results?.[0];
  const info: BookingInfo | undefined = q.data;
  const booked = !!info && BOOKED.includes(info.bookingState);
  const unsent = info?.deliveries.some((d) => d.status !== 'sent') ?? false;
  return (
    <Card
      size="small" title="入账标识" className="ledger-section" data-testid="pool-booking"
      extra={info ? (
        <Space>
          {booked ? (
            <Popconfirm title="撤销入账？" description="将把该发票改为「06 入账撤销」并同步税务端。" okText="撤销入账" cancelText="取消" onConfirm={() => void run(() => bookingApi.revoke([invoiceId]), first)}>
              <Button danger loading={busy} data-testid="booking-revoke">撤销入账</Button>
            </Popconfirm>
          ) : (
            <Button type="primary" loading={busy} onClick={() => { setState('02'); setChoosing(true); }} data-testid="booking-book">标记入账</Button>
          )}
          <Button disabled={!unsent} loading={busy} onClick={() => void run(() => bookingApi.retry(invoiceId))} data-testid="booking-retry">立即重试</Button>
        </Space>
      ) : null}
    >
      {q.isError ? <Alert type="error" showIcon title={q.error instanceof Error ? q.error.message : '入账标识加载失败'} /> : null}
      {note ? <Alert type={note.type} showIcon closable onClose={() => setNote(null)} style={{ marginBottom: 8 }} title={note.text} data-testid="booking-note" /> : null}
      {info ? (
        <>
          <Descriptions size="small" column={{ xs: 1, md: 2 }} style={{ marginBottom: 8 }}
            items={[
              { key: 's', label: '入账状态', children: <span data-testid="booking-state">{label(info.bookingState)}</span> },
              { key: 'd', label: '入账日期', children: info.bookedAt ? formatShanghai(info.bookedAt, 'YYYY-MM-DD') : '—' },
            ]}
          />
          <Table<BookingDeliveryRow>
            size="small" rowKey="id" pagination={info.deliveries.length > 10 ? { pageSize: 10 } : false} dataSource={info.deliveries} columns={columns} scroll={{ x: 1100 }}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="尚未向税务端同步入账标识" /> }}
          />
        </>
      ) : null}
      <Modal
        open={choosing} title="标记入账" okText="标记入账" cancelText="取消" confirmLoading={busy} destroyOnHidden
        onCancel={() => setChoosing(false)} onOk={() => void run(() => bookingApi.book([invoiceId], state), first)}
      >
        <Radio.Group value={state} onChange={(e) => setState(e.target.value as '02' | '03')} data-testid="booking-choice">
          <Space orientation="vertical">
            <Radio value="02">02 {IncomeBookingState.label('02')}</Radio>
            <Radio value="03">03 {IncomeBookingState.label('03')}</Radio>
          </Space>
        </Radio.Group>
        <div style={{ marginTop: 8 }}><Typography.Text type="secondary">标记后立即向税务端同步入账标识，同步失败时系统自动重试。</Typography.Text></div>
      </Modal>
    </Card>
  );
}
