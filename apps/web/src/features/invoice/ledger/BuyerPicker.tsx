/** 购方: a buyer picked by name or tax number (the ledger then filters on buyer_id, an index). */
import { useQuery } from '@tanstack/react-query';
import { Select, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { ledgerApi } from '../../../api/invoiceLedger';
import { LEDGER_KEY } from './request';

export function BuyerPicker(props: { value?: string; onChange?: (v: string | undefined) => void; id?: string }) {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  const q = useQuery({ queryKey: [...LEDGER_KEY, 'buyers', keyword], queryFn: () => ledgerApi.buyers(keyword), staleTime: 60_000 });
  return (
    <Select
      id={props.id}
      allowClear
      showSearch={{ filterOption: false, onSearch: setTyped }}
      placeholder="名称或税号"
      style={{ width: 240 }}
      value={props.value}
      onChange={(v) => props.onChange?.(v)}
      notFoundContent={q.isFetching ? <Spin size="small" /> : '没有匹配的购方'}
      options={(q.data ?? []).map((b) => ({ value: b.id, label: b.name, title: b.taxNo }))}
    />
  );
}
