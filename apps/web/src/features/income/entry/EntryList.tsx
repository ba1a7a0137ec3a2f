/** 进项发票登记 (/invoice-entry/list): the invoices waiting to be signed, with 签收 for the rows chosen. */
import { EntryWaiting } from './EntryWaiting';

export default function EntryList() {
  return <EntryWaiting scope="all" testId="entry-list" emptyText="没有待签收的发票" />;
}
