/** Picks active users by name or login name (/user/choose-list), one or several. */
import { useQuery } from '@tanstack/react-query';
import { Select } from 'antd';
import { useState } from 'react';
import { systemApi } from '../../api/system';

export interface UserPickerProps {
  value?: string | string[] | null;
  onChange?: (v: string | string[] | undefined) => void;
  multiple?: boolean;
  /** The label of the current value when it is not among the search results. */
  currentLabel?: string;
  placeholder?: string;
  style?: React.CSSProperties;
}

export function UserPicker(props: UserPickerProps) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: ['system', 'choose', keyword], queryFn: () => systemApi.chooseUsers(keyword), staleTime: 30_000 });
  const options = (q.data ?? []).map((u) => ({ value: u.id, label: `${u.name}（${u.loginName}）${u.deptName ? ` · ${u.deptName}` : ''}` }));
  if (typeof props.value === 'string' && props.currentLabel && !options.some((o) => o.value === props.value)) options.unshift({ value: props.value, label: props.currentLabel });
  return (
    <Select<string | string[]>
      mode={props.multiple ? 'multiple' : undefined}
      value={props.value ?? undefined}
      onChange={(v) => props.onChange?.(v ?? undefined)}
      options={options}
      loading={q.isFetching}
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      allowClear
      placeholder={props.placeholder ?? '输入姓名或登录名搜索'}
      notFoundContent={q.isFetching ? '搜索中…' : '没有匹配的在用用户'}
      style={props.style ?? { width: '100%' }}
    />
  );
}
