/** 进项票池 (/income/invoicePool/list): every incoming invoice, with 手工录入 of a paper invoice. */
import { EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useSession } from '../../stores/session';
import { PoolEntryDrawer } from './PoolEntryDrawer';
import { PoolTable } from './PoolTable';
import { canEnterPool, POOL_KEY } from './request';

export default function PoolList() {
  const [entering, setEntering] = useState(false);
  const client = useQueryClient();
  const canEnter = canEnterPool(useSession((s) => s.roles));
  return (
    <>
      <PoolTable
        scope="all" testId="income-pool" fileName="进项票池" emptyText="没有符合条件的发票"
        actions={canEnter ? <Button icon={<EditOutlined />} onClick={() => setEntering(true)} data-testid="pool-entry">手工录入</Button> : null}
      />
      {canEnter ? <PoolEntryDrawer open={entering} onClose={() => setEntering(false)} onSaved={() => void client.invalidateQueries({ queryKey: POOL_KEY })} /> : null}
    </>
  );
}
