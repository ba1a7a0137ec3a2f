/**
 * 进项发票登记 (/invoice-entry/list): the invoices waiting to be signed, with 签收 for the rows chosen, and
 * 登记发票 to upload invoice files or enter a paper invoice (进项发票编辑, edit/new).
 */
import { UploadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { EntryWaiting } from './EntryWaiting';
import { entryEditPath } from './request';

export default function EntryList() {
  const navigate = useNavigate();
  return (
    <EntryWaiting
      scope="all" testId="entry-list" emptyText="没有待签收的发票"
      extra={<Button icon={<UploadOutlined />} onClick={() => navigate(entryEditPath('new'))} data-testid="entry-register">登记发票</Button>}
    />
  );
}
