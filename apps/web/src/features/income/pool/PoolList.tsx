/** 进项票池 (/income/invoicePool/list): every incoming invoice, with 采集, 批量查验 and 手工录入 of a paper invoice. */
import { EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import type { PoolRow } from '@zhyy/shared';
import { useSession } from '../../../stores/session';
import { PoolCollectButton } from '../intake/PoolCollect';
import { PoolEntryDrawer } from '../intake/PoolEntryDrawer';
import { PoolTable } from './PoolTable';
import { BatchVerifyButton } from '../intake/PoolVerify';
import { canEnterPool, POOL_KEY, poolNumber } from './request';

export default function PoolList() {
  const [entering, setEntering] = useState(false);
  const [selected, setSelected] = useState<{ keys: string[]; rows: PoolRow[] }>({ keys: [], rows: [] });
  const client = useQueryClient();
  const canEnter = canEnterPool(useSession((s) => s.roles));
  const rows = selected.rows.filter(Boolean).map((r) => ({ id: r.id, number: poolNumber(r) }));
  return (
    <>
      <PoolTable
        scope="all" testId="income-pool" fileName="进项票池" emptyText="没有符合条件的发票"
        selection={canEnter ? { keys: selected.keys, onChange: (keys, rs) => setSelected({ keys, rows: rs }) } : undefined}
        actions={canEnter ? (
          <>
            <PoolCollectButton />
            <BatchVerifyButton rows={rows} onDone={() => setSelected({ keys: [], rows: [] })} />
            <Button icon={<EditOutlined />} onClick={() => setEntering(true)} data-testid="pool-entry">手工录入</Button>
          </>
        ) : null}
      />
      {canEnter ? <PoolEntryDrawer open={entering} onClose={() => setEntering(false)} onSaved={() => void client.invalidateQueries({ queryKey: POOL_KEY })} /> : null}
    </>
  );
}
