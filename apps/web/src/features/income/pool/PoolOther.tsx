/** 其他票池 (/income/invoicePool/other): customs payment notes, withholding certificates, passenger tickets and tolls. */
import { PoolTable } from './PoolTable';

export default function PoolOther() {
  return <PoolTable scope="other" testId="income-pool-other" fileName="其他票池" emptyText="没有符合条件的票据" />;
}
