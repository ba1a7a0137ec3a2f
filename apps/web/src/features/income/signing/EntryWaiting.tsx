/**
 * The invoices waiting to be signed (进项发票登记, 签收归档's 待签收, 部门签收): the pool's list and filters
 * (PoolTable) over the entry list call, rows chosen across pages, and 签收 opening the sign dialog for
 * them. Role 16 reads only: no selection, no 签收 (the server refuses it with 权限不足 too).
 */
import { AuditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState, type ReactNode } from 'react';
import { canWriteIncomeEntry, type PoolRow } from '@zhyy/shared';
import { ENTRY_EXPORTS, incomeEntryApi, type EntryScope } from '../../../api/incomeEntry';
import { useSession } from '../../../stores/session';
import { PoolTable } from '../pool/PoolTable';
import { SignDialog } from './SignDialog';
import { ENTRY_KEY, entryDetailPath } from './request';

export interface EntryWaitingProps {
  scope: EntryScope;
  testId: string;
  emptyText: string;
  header?: ReactNode;
  /** The page's own buttons beside 签收. */
  extra?: ReactNode;
}

export function EntryWaiting({ scope, testId, emptyText, header, extra }: EntryWaitingProps) {
  const client = useQueryClient();
  const canSign = canWriteIncomeEntry(useSession((s) => s.roles));
  const [chosen, setChosen] = useState<PoolRow[]>([]);
  const [signing, setSigning] = useState(false);
  const keys = chosen.map((r) => r.id);
  return (
    <>
      <PoolTable
        scope="all" testId={testId} fileName="待签收发票" emptyText={emptyText} header={header}
        list={{ key: [...ENTRY_KEY, 'waiting', scope], fetch: (p) => incomeEntryApi.waiting(scope, p) }}
        exportPath={scope === 'all' ? ENTRY_EXPORTS.waiting : null} detailPath={entryDetailPath} formName={`income-entry-${scope}`}
        selection={canSign ? { keys, onChange: (_k, rows) => setChosen(rows) } : undefined}
        actions={<>
          {extra}
          {canSign ? (
            <Button type="primary" icon={<AuditOutlined />} disabled={!chosen.length} onClick={() => setSigning(true)} data-testid="entry-sign">
              {chosen.length ? `签收（${chosen.length}张）` : '签收'}
            </Button>
          ) : null}
        </>}
      />
      {canSign ? (
        <SignDialog
          scope={scope} open={signing} rows={chosen}
          onClose={() => setSigning(false)}
          onSigned={() => {
            setChosen([]);
            // The pool's lists show the sign state too.
            void client.invalidateQueries({ queryKey: [ENTRY_KEY[0]] });
          }}
        />
      ) : null}
    </>
  );
}
