/**
 * What the people and certificate pages share: their paths, the query key, the certificate state tag
 * (its colour escalating with the reminder marks: gold within 90 days, orange within 60, red within 30,
 * solid red once expired) and the 可办理延期 tag, days left, the option lists, the holder picker
 * (searching the active staff) and the certificate kinds.
 */
import { useQuery } from '@tanstack/react-query';
import { Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { CERT_STATE_LABEL, Education, Gender, TitleLevel, type CertificateRow, type CertKind, type CertState, type CertStateFilter } from '@zhyy/shared';
import { certKindApi, personnelApi } from '../../../api/tender-people';

import { PEOPLE_KEY, PEOPLE_PATHS } from '../../common/tenderPeoplePaths';

export { PEOPLE_KEY, PEOPLE_PATHS };

const STATE_COLOURS: Record<CertState, string> = { expired: 'red', expiring: 'gold', valid: 'green', permanent: 'blue' };

/**
 * How urgent a certificate is, by the reminder marks of 投标设置 (90, 60, 30, 7 days): the colour of its
 * state escalates as the marks pass, so one with 20 days left never looks like one with 89 (issue 31).
 */
export function certUrgency(state: CertState, daysLeft: number | null | undefined): 'expired' | 'red' | 'orange' | 'gold' | null {
  if (state === 'expired') return 'expired';
  if (state !== 'expiring' || daysLeft === null || daysLeft === undefined) return state === 'expiring' ? 'gold' : null;
  return daysLeft <= 30 ? 'red' : daysLeft <= 60 ? 'orange' : 'gold';
}

export function CertStateTag({ state, daysLeft }: { state: CertState; daysLeft?: number | null }) {
  const u = certUrgency(state, daysLeft);
  const colour = u && u !== 'expired' ? u : STATE_COLOURS[state];
  // Expired: solid red, a step beyond the light red of the last 30 days.
  return <Tag color={colour} variant={u === 'expired' ? 'solid' : undefined} data-testid="cert-state" data-urgency={u ?? undefined}>{CERT_STATE_LABEL[state]}</Tag>;
}

/** 剩余: the days left, in the colour of the state tag's urgency (danger within 30 days or expired). */
export function DaysLeft({ cert }: { cert: Pick<CertificateRow, 'state' | 'daysLeft'> }) {
  const u = certUrgency(cert.state, cert.daysLeft);
  const type = u === 'expired' || u === 'red' ? 'danger' : u ? 'warning' : undefined;
  return <Typography.Text type={type} data-testid="cert-days-left">{daysLeftText(cert.daysLeft)}</Typography.Text>;
}

/** 可办理延期: today in the renewal window of the certificate's kind (not expired), with the window's start. */
export function RenewableTag({ cert }: { cert: Pick<CertificateRow, 'renewable' | 'renewFrom'> }) {
  if (!cert.renewable) return null;
  return <Tag color="cyan" title={`${cert.renewFrom} 起可办理延期`} data-testid="cert-renewable">可办理延期</Tag>;
}

/** The 状态 column: the state, and under it 可办理延期 when it is. */
export function CertStateCell({ cert }: { cert: Pick<CertificateRow, 'state' | 'daysLeft' | 'renewable' | 'renewFrom'> }) {
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'wrap', gap: 4 }}>
      <CertStateTag state={cert.state} daysLeft={cert.daysLeft} />
      <RenewableTag cert={cert} />
    </span>
  );
}

/** 还剩 12 天 / 已过期 3 天 / 今天到期 / 长期. */
export function daysLeftText(daysLeft: number | null): string {
  if (daysLeft === null) return '长期';
  if (daysLeft === 0) return '今天到期';
  return daysLeft > 0 ? `还剩 ${daysLeft} 天` : `已过期 ${-daysLeft} 天`;
}

export const EDUCATION_OPTIONS = Education.options.filter((o) => o.value !== 0).map((o) => ({ value: o.value, label: o.label }));
export const GENDER_OPTIONS = Gender.options.filter((o) => o.value !== 0).map((o) => ({ value: o.value, label: o.label }));
export const TITLE_LEVEL_OPTIONS = TitleLevel.options.map((o) => ({ value: o.value, label: o.label }));
export const CERT_STATE_OPTIONS: Array<{ value: CertStateFilter; label: string }> = [
  ...(['expired', 'expiring', 'valid', 'permanent'] as const).map((s) => ({ value: s, label: CERT_STATE_LABEL[s] })),
  { value: 'renewable', label: '可办理延期' },
];

/** Drops the empty fields of a request. */
export function compact<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Partial<T>;
}

export function useCertKinds() {
  return useQuery({ queryKey: [...PEOPLE_KEY, 'kinds'], queryFn: () => certKindApi.list(), staleTime: 60_000 });
}

export const kindOptions = (kinds: readonly CertKind[] | undefined) => (kinds ?? []).map((k) => ({ value: k.id, label: k.name }));

/** The holder: active staff found by name or login name (the current one kept as an option while editing). */
export function PersonPicker({ value, onChange, current, width = 220 }: { value?: string; onChange?: (v: string) => void; current?: { userId: string; name: string } | undefined; width?: number }) {
  const [keyword, setKeyword] = useState('');
  const q = useQuery({ queryKey: [...PEOPLE_KEY, 'options', keyword], queryFn: () => personnelApi.options(keyword || undefined) });
  const options = (q.data ?? []).map((o) => ({ value: o.userId, label: `${o.name}（${o.loginName}${o.deptName ? `，${o.deptName}` : ''}）` }));
  if (current && !options.some((o) => o.value === current.userId)) options.unshift({ value: current.userId, label: current.name });
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: setKeyword }}
      value={value}
      onChange={(v) => onChange?.(v)}
      options={options}
      loading={q.isFetching}
      placeholder="输入姓名或登录名查找"
      style={{ width }}
      notFoundContent={q.isFetching ? '查找中…' : '没有匹配的人员'}
      data-testid="person-picker"
    />
  );
}
