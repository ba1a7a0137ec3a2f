/**
 * 疑似重复报销 (issue 32 #4) as the approver sees it: each match of a line with a line of another bill (seller,
 * amount, date within the tolerance, whoever applied) or of the same bill (a receipt entered twice), a link that opens the other bill as the approver may see
 * it (`/bill/peer`: header and lines, no payee account or files), and for the current handler 接受 with an
 * opinion (recorded; the finding then shows who accepted it and why). Readers without the reference (the
 * applicant, for a colleague's bill) see the finding among the checks only.
 */
import { Alert, Button, Card, Descriptions, Input, List, Modal, Popover, Space, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { formatFen, type ReimbCheck, type ReimbLineView, type ReimbPeerView } from '@zhyy/shared';
import { reimbApi } from '../../../api/reimbursement';
import { formatTime } from '../../../components/download';
import { feedback } from '../../../ui/feedback';
import { Money } from '../../common/Money';
import { REIMB_KEY } from './common';

interface Match {
  line: ReimbLineView;
  check: ReimbCheck & { ref: NonNullable<ReimbCheck['ref']> };
}

/**
 * The lines' duplicate-claim findings that carry a reference (the ones this reader may follow). A pair within the
 * bill (the same receipt entered twice) is found on both its lines; it is listed once, on the first of them.
 */
export function duplicateMatches(lines: readonly ReimbLineView[], billId?: string): Match[] {
  return lines.flatMap((line) =>
    line.checks.flatMap((c) => (c.code === 'duplicateClaim' && c.ref && !(c.ref.billId === billId && c.ref.lineNo < line.lineNo) ? [{ line, check: c as Match['check'] }] : [])),
  );
}

/** The other line of a match, in words: 本单第N行, or the other bill's line and applicant. */
const otherLine = (billId: string, r: Match['check']['ref']) => (r.billId === billId ? `本单第${r.lineNo}行` : `${r.applicantName} 的报销单 ${r.billNo} 第${r.lineNo}行`);

/** A line needs attention: a warning that is not an accepted duplicate claim. */
export const needsAttention = (l: ReimbLineView) => l.checks.some((c) => c.level === 'warn' && !(c.code === 'duplicateClaim' && c.accepted));

function Accept({ m, billId, onDone }: { m: Match; billId: string; onDone: () => void }) {
  const [open, setOpen] = useState(false);
  const [opinion, setOpinion] = useState('');
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (!opinion.trim()) return void feedback().message.error('请填写接受意见');
    setBusy(true);
    try {
      const a = await reimbApi.acceptDuplicate(m.line.id, m.check.ref.lineId, opinion.trim());
      if (a.code !== 20000) return void feedback().message.error(a.message ?? '接受失败');
      void feedback().message.success(a.message ?? '已接受');
      setOpen(false);
      onDone();
    } finally {
      setBusy(false);
    }
  };
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger="click"
      title={m.check.ref.billId === billId ? `接受第${m.line.lineNo}行与本单第${m.check.ref.lineNo}行的疑似重复` : `接受第${m.line.lineNo}行与报销单 ${m.check.ref.billNo} 的疑似重复`}
      content={
        <Space direction="vertical" style={{ width: 280 }}>
          <Input.TextArea value={opinion} onChange={(e) => setOpinion(e.target.value)} maxLength={200} rows={3} placeholder="接受意见（必填，如：已核对行程单，两人分别乘车）" />
          <Button type="primary" size="small" loading={busy} onClick={() => void save()}>
            确认接受
          </Button>
        </Space>
      }
    >
      <Button size="small" data-testid={`accept-duplicate-${m.line.lineNo}-${m.check.ref.billNo}`}>
        接受
      </Button>
    </Popover>
  );
}

function PeerModal({ billId, peerId, onClose }: { billId: string; peerId: string | null; onClose: () => void }) {
  const q = useQuery({ queryKey: [...REIMB_KEY, 'peer', billId, peerId], queryFn: () => reimbApi.peer(billId, peerId!), enabled: !!peerId, retry: false });
  const v = peerId ? q.data : undefined;
  const error = peerId && q.isError ? (q.error as Error).message : undefined;
  return (
    <Modal open={!!peerId} title={v ? `疑似重复的报销单 ${v.billNo}` : '疑似重复的报销单'} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      {error ? <Alert type="warning" showIcon title={`无法查看：${error}`} /> : null}
      {v ? (
        <Space direction="vertical" size={8} style={{ width: '100%' }} data-testid="duplicate-peer">
          <Descriptions
            size="small"
            bordered
            column={2}
            items={[
              { key: 'no', label: '报销单号', children: v.billNo },
              { key: 'who', label: '申请人', children: `${v.applicantName}（${v.deptName}）` },
              { key: 'state', label: '状态', children: [v.flowStateName, v.reimbStateName].filter(Boolean).join(' / ') },
              { key: 'submitted', label: '提交时间', children: v.submittedAt ? formatTime(v.submittedAt) : '—' },
              { key: 'reason', label: '报销事由', span: 2, children: v.reason },
              { key: 'amount', label: '报销金额', span: 2, children: <Money fen={v.amount} strong /> },
            ]}
          />
          <Table
            rowKey="id"
            size="small"
            pagination={false}
            dataSource={v.lines}
            rowClassName={(r) => (r.matched ? 'reimb-duplicate-row' : '')}
            columns={[
              { title: '行', dataIndex: 'lineNo', width: 40 },
              { title: '类别 / 日期', dataIndex: 'categoryName', width: 120, render: (c: string, r) => `${c} ${r.expenseDate}` },
              { title: '说明', dataIndex: 'description', ellipsis: true },
              { title: '收款方', dataIndex: 'sellerName', width: 150, render: (x: string) => x || '—' },
              { title: '金额', dataIndex: 'amount', width: 100, align: 'right', render: (x: number) => <Money fen={x} /> },
              { title: '', dataIndex: 'matched', width: 64, render: (x: boolean) => (x ? <Tag color="orange">匹配</Tag> : null) },
            ]}
          />
        </Space>
      ) : null}
    </Modal>
  );
}

/** The matches of the bill's lines with their links, acceptances and (for the current handler) 接受. */
export function DuplicateMatches({ billId, lines, canAccept, onDone }: { billId: string; lines: readonly ReimbLineView[]; canAccept: boolean; onDone: () => void }) {
  const [peer, setPeer] = useState<string | null>(null);
  const matches = duplicateMatches(lines, billId);
  if (!matches.length) return null;
  return (
    <Card size="small" title={`疑似重复报销（${matches.length}）`} data-testid="duplicate-matches">
      <List
        size="small"
        dataSource={matches}
        renderItem={(m) => {
          const r = m.check.ref;
          return (
            <List.Item
              key={`${m.line.id}-${r.lineId}`}
              actions={[
                // A match within this bill has no other bill to open.
                ...(r.billId === billId
                  ? []
                  : [
                      <Typography.Link key="open" onClick={() => setPeer(r.billId)} data-testid={`open-duplicate-${r.billNo}`}>
                        查看报销单 {r.billNo}
                      </Typography.Link>,
                    ]),
                ...(canAccept && !m.check.accepted ? [<Accept key="accept" m={m} billId={billId} onDone={onDone} />] : []),
              ]}
            >
              <Space direction="vertical" size={0}>
                <Typography.Text>
                  第{m.line.lineNo}行 与 {otherLine(billId, r)}：{r.sellerName || '（无收款方）'}，{formatFen(r.amount)} 元，{r.expenseDate}
                  {r.days ? `（相差 ${r.days} 天）` : '（同日）'}
                </Typography.Text>
                {m.check.accepted ? (
                  <Typography.Text type="secondary" data-testid="duplicate-accepted">
                    <Tag color="green">已接受</Tag>
                    {m.check.accepted.by}（{formatTime(m.check.accepted.at)}）：{m.check.accepted.opinion}
                  </Typography.Text>
                ) : null}
              </Space>
            </List.Item>
          );
        }}
      />
      <PeerModal billId={billId} peerId={peer} onClose={() => setPeer(null)} />
    </Card>
  );
}
