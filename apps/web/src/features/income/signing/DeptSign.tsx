/**
 * 部门签收 (/invoice-entry/dept/sign): the waiting invoices of the caller's department (the department
 * registered on the invoice in 项目分摊), signed with the same dialog. A caller without a department sees
 * nothing to sign and the server's refusal (您的账号未设置所属部门…) if they try.
 */
import { Alert } from 'antd';
import { EntryWaiting } from './EntryWaiting';

export default function DeptSign() {
  const header = (
    <Alert type="info" showIcon style={{ marginBottom: 12 }} data-testid="dept-sign-hint" title="这里列出发票所属部门为您所在部门的待签收发票（发票所属部门在项目分摊中登记）" />
  );
  return <EntryWaiting scope="dept" testId="entry-dept" emptyText="本部门没有待签收的发票" header={header} />;
}
