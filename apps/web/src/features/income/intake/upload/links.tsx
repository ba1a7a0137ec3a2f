/** Where an invoice of the pool opens for the caller: the pool's detail (roles 1, 13), else this page for it. */
import { Button } from 'antd';
import { useNavigate } from 'react-router';
import { useSession } from '../../../../stores/session';
import { entryEditPath } from '../../signing/request';
import { canEnterPool, poolDetailPath } from '../../pool/request';

export { ENTRY_LIST, entryEditPath } from '../../signing/request';

export function InvoiceLink({ id, children = '查看发票' }: { id: string; children?: React.ReactNode }) {
  const navigate = useNavigate();
  const pool = canEnterPool(useSession((s) => s.roles));
  return <Button type="link" size="small" style={{ padding: 0 }} onClick={() => navigate(pool ? poolDetailPath(id) : entryEditPath(id))} data-testid="invoice-link">{children}</Button>;
}
