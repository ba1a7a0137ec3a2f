/**
 * What the contract and project pages share: the query key, the pickers (project, frame contract, staff:
 * searched on the server as the user types), money and completeness display, who may add or edit.
 */
import { useQuery } from '@tanstack/react-query';
import { Select, Tag } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { ContractType, canAccess, formatFen, pageRoute } from '@zhyy/shared';
import { tenderContractApi, tenderProjectApi } from '../../../api/tender-contracts';
import { useSession } from '../../../stores/session';

export const TENDER_CONTRACT_KEY = ['tender', 'contracts'] as const;
export const TENDER_PROJECT_KEY = ['tender', 'projects'] as const;

export const CONTRACT_LIST = '/tender/contract/list';
export const contractDetailPath = (type: number, id: string) => `/tender/contract/detail/${type}/${id}`;
export const contractEditPath = (type: number, id: string) => `/tender/contract/edit/${type}/${id}`;
/** addcf: a frame contract; addc: a single or an order contract. The :id is EMPTY_ID (a blank form) or a contract to copy. */
export const contractAddPath = (type: number, copyOf: string) => (type === ContractType.frame ? `/tender/contract/addcf/${type}/${copyOf}` : `/tender/contract/addc/${type}/${copyOf}`);
export const PROJECT_LIST = '/tender/project';
export const projectDetailPath = (id: string) => `/tender/project/detail/${id}`;
export const projectModifyPath = (id: string) => `/tender/project/modify/${id}`;

function useCan(path: string): boolean {
  const roles = useSession((s) => s.roles);
  return canAccess(roles, pageRoute(path).requirement);
}
export const useCanAddContract = () => useCan('/tender/contract/addc/:contractType/:id');
export const useCanEditContract = () => useCan('/tender/contract/edit/:contractType/:id');
export const useCanSeeProjects = () => useCan('/tender/project');

export const Money = ({ fen }: { fen: number }) => (
  <span className="figure" data-figure="">
    {formatFen(fen)}
  </span>
);

export function PagesTag({ missing }: { missing: number }) {
  return missing ? <Tag color="orange">缺{missing}页</Tag> : <Tag color="green">完整</Tag>;
}

export const CONTRACT_TYPE_OPTIONS = ContractType.options.map((o) => ({ value: o.value, label: o.label }));
export const dayOf = (d: Dayjs | null | undefined): string | null => (d ? d.format('YYYY-MM-DD') : null);
export const dayjsOf = (v: string | null | undefined): Dayjs | undefined => (v ? dayjs(v) : undefined);
/** A percentage in basis points as text ('—' when there is no base). */
export const percentText = (bp: number | null) => (bp === null ? '—' : `${(bp / 100).toFixed(2)}%`);

interface PickerProps {
  value?: string | null;
  onChange?: (v: string | null) => void;
  placeholder?: string;
  id?: string;
  width?: number;
  /** The label of the chosen one, before any search lists it (an edited record). */
  known?: { id: string; label: string } | null;
  'aria-label'?: string;
}

function useTyped(): [string, (v: string) => void] {
  const [typed, setTyped] = useState('');
  const [keyword, setKeyword] = useState('');
  useEffect(() => {
    const t = setTimeout(() => setKeyword(typed.trim()), 300);
    return () => clearTimeout(t);
  }, [typed]);
  return [keyword, setTyped];
}

function SearchSelect(props: PickerProps & { what: string; load: (keyword: string) => Promise<{ id: string; label: ReactNode }[]>; queryKey: string }) {
  const [keyword, setTyped] = useTyped();
  const q = useQuery({ queryKey: [...TENDER_CONTRACT_KEY, props.queryKey, keyword], queryFn: () => props.load(keyword), staleTime: 60_000 });
  const options = useMemo(() => {
    const list: { id: string; label: ReactNode }[] = [...(q.data ?? [])];
    if (props.value && props.known?.id === props.value && !list.some((o) => o.id === props.value)) list.unshift(props.known);
    return list.map((o) => ({ value: o.id, label: o.label }));
  }, [q.data, props.value, props.known]);
  return (
    <Select
      id={props.id}
      value={props.value ?? undefined}
      onChange={(v: string | undefined) => props.onChange?.(v ?? null)}
      options={options}
      showSearch={{ filterOption: false, onSearch: setTyped }}
      loading={q.isFetching}
      allowClear
      placeholder={props.placeholder ?? `选择${props.what}`}
      notFoundContent={q.isFetching ? '加载中…' : q.isError ? `${props.what}列表暂不可用` : `没有匹配的${props.what}`}
      style={{ width: props.width ?? 240 }}
      // An option (a name, its login and department, a tag) is shown whole, however narrow the field.
      popupMatchSelectWidth={false}
      aria-label={props['aria-label']}
    />
  );
}

const label = (o: { code: string; name: string }) => `${o.code} ${o.name}`;

export const ProjectSelect = (p: PickerProps) => (
  <SearchSelect {...p} what="项目" queryKey="project-options" load={async (k) => (await tenderProjectApi.options(k || undefined)).map((o) => ({ id: o.id, label: label(o) }))} />
);
export const FrameSelect = (p: PickerProps) => (
  <SearchSelect {...p} what="框架合同" queryKey="frame-options" load={async (k) => (await tenderContractApi.options(k || undefined, ContractType.frame)).map((o) => ({ id: o.id, label: label(o) }))} />
);
/** Staff: the server lists today's 注册建造师 first (tagged here) and the built-in 系统管理员 last. */
export const UserSelect = (p: PickerProps) => (
  <SearchSelect
    {...p}
    what="人员"
    queryKey="user-options"
    load={async (k) =>
      (await tenderContractApi.users(k || undefined)).map((u) => ({
        id: u.id,
        label: (
          <span data-testid="user-option">
            {u.registered ? <Tag color="blue" style={{ marginInlineEnd: 6 }}>注册建造师</Tag> : null}
            {`${u.name}（${u.loginName}${u.deptName ? `，${u.deptName}` : ''}）`}
          </span>
        ),
      }))
    }
  />
);
