/**
 * 签收归档 (/invoice-entry/sign/list, badge invoiceEntrySignCount): 待签收 — the waiting invoices with
 * the sign dialog — and 签收记录, every signing with its archive number or failure reason.
 */
import { Tabs } from 'antd';
import { useState } from 'react';
import { EntryWaiting } from './EntryWaiting';
import { SigningList } from './SigningList';

export default function SignList() {
  const [tab, setTab] = useState('waiting');
  return (
    <Tabs
      activeKey={tab} onChange={setTab} data-testid="entry-sign-tabs"
      items={[
        { key: 'waiting', label: '待签收', children: <EntryWaiting scope="all" testId="entry-sign-waiting" emptyText="没有待签收的发票" /> },
        // Mounted when first opened, then kept: its filters stay while the user switches back and forth.
        { key: 'records', label: '签收记录', children: <SigningList /> },
      ]}
    />
  );
}
