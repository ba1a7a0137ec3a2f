/**
 * The printed 报销单 (issue 31): the voucher-style sheet the finance office files, one A4 page for an
 * ordinary bill. It carries the total in 大写 (and the 核定 total in 大写 where it differs), 附单据张数
 * (the distinct invoices of the lines plus the attachments), the payee, the approvals recorded, and
 * the signature lines 报销人, 部门负责人, 财务审核, 领款人.
 *
 * The sheet is rendered into document.body (a portal) while its view is the current one: print.css then
 * prints only that portal and hides the application with display:none, so nothing of the page behind
 * (which visibility:hidden kept in the layout, three blank pages) is laid out on paper. A view kept alive
 * but hidden (<Activity mode="hidden">) runs no effects, so its sheet is not in the portal.
 */
import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { capitalAmount, formatFen, type ReimbBillDetail } from '@zhyy/shared';
import { formatTime } from '../../../components/download';

/** 附单据张数: the invoices attached to the lines (each counted once) and the bill's attachments. */
export function voucherCount(b: Pick<ReimbBillDetail, 'lines' | 'attachments'>): number {
  const invoices = new Set(b.lines.map((l) => l.invoiceId ?? (l.invoiceNumber ? `no:${l.invoiceNumber}` : null)).filter((x): x is string => x !== null));
  return invoices.size + b.attachments.length;
}

export function PrintSheet({ b }: { b: ReimbBillDetail }) {
  const approvedDiffers = b.approvedAmount !== b.amount;
  const approvals = b.track.filter((t) => t.action === 'send');
  return (
    <div className="reimb-print" data-testid="reimb-print">
      <h2>费用报销单</h2>
      <div className="reimb-print-meta">
        <span>报销部门：{b.deptName}</span>
        <span>填报日期：{formatTime(b.createdAt).slice(0, 10)}</span>
        <span>单号：{b.billNo}</span>
      </div>
      <table>
        <colgroup>
          <col style={{ width: '6%' }} />
          <col style={{ width: '14%' }} />
          <col style={{ width: '12%' }} />
          <col />
          <col style={{ width: '17%' }} />
          <col style={{ width: '13%' }} />
          <col style={{ width: '13%' }} />
        </colgroup>
        <tbody>
          <tr>
            <th>报销人</th>
            <td colSpan={2}>{b.applicantName}</td>
            <th>费用期间</th>
            <td colSpan={3}>{b.periodFrom} 至 {b.periodTo}</td>
          </tr>
          <tr>
            <th>事由</th>
            <td colSpan={6}>{b.reason}{b.projectName || b.contractNo ? `（${[b.projectName, b.contractNo].filter(Boolean).join(' / ')}）` : ''}</td>
          </tr>
          <tr>
            <th>行</th>
            <th>费用类别</th>
            <th>日期</th>
            <th>说明</th>
            <th>发票号码</th>
            <th>报销金额</th>
            <th>核定金额</th>
          </tr>
          {b.lines.map((l) => (
            <tr key={l.id}>
              <td className="center">{l.lineNo}</td>
              <td>{l.categoryName}</td>
              <td>{l.expenseDate}</td>
              <td>{l.description}</td>
              <td>{l.invoiceNumber}</td>
              <td className="num">{formatFen(l.amount)}</td>
              <td className="num">{formatFen(l.approvedAmount ?? l.amount)}</td>
            </tr>
          ))}
          <tr>
            <th colSpan={5} className="right">合计（小写）</th>
            <td className="num strong">{formatFen(b.amount)}</td>
            <td className="num strong">{formatFen(b.approvedAmount)}</td>
          </tr>
          <tr>
            <th>金额大写</th>
            <td colSpan={6} data-testid="reimb-print-capital">
              报销金额：{capitalAmount(b.amount)}
              {approvedDiffers ? <span className="gap">核定金额：{capitalAmount(b.approvedAmount)}</span> : null}
            </td>
          </tr>
          <tr>
            <th>附单据</th>
            <td colSpan={2} data-testid="reimb-print-vouchers">{voucherCount(b)} 张</td>
            <th>收款人</th>
            <td colSpan={3}>
              {b.payeeName}
              {b.payeeBank ? `　${b.payeeBank}` : ''}
              {b.payeeAccount ? `　${b.payeeAccount}` : ''}
            </td>
          </tr>
          {approvals.length ? (
            <tr>
              <th>审批记录</th>
              <td colSpan={6} className="small">
                {approvals.map((t) => (
                  <span key={t.id} className="gap-right">
                    {t.nodeName}：{t.actorName}{t.opinion ? `（${t.opinion}）` : ''} {formatTime(t.createdAt).slice(0, 10)}
                  </span>
                ))}
              </td>
            </tr>
          ) : null}
        </tbody>
      </table>
      <div className="reimb-print-sign" data-testid="reimb-print-sign">
        {['报销人', '部门负责人', '财务审核', '领款人'].map((who) => (
          <span key={who}>
            {who}：<i />
          </span>
        ))}
      </div>
    </div>
  );
}

/** The sheet in a portal of document.body while the view is current (print.css prints only it). */
export function PrintPortal({ b }: { b: ReimbBillDetail }) {
  const [on, setOn] = useState(false);
  useEffect(() => {
    setOn(true);
    return () => setOn(false);
  }, []);
  return on
    ? createPortal(
        <div className="reimb-print-root">
          <PrintSheet b={b} />
        </div>,
        document.body,
      )
    : null;
}
