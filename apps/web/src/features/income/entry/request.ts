/** The 发票签收 pages' paths, query key and who may sign (the server's INCOME_ENTRY_WRITE_ROLES; role 16 reads only). */
import { INCOME_ENTRY_WRITE_ROLES } from '@zhyy/shared';

export const ENTRY_KEY = ['income', 'entry'] as const;
export const ENTRY_LIST = '/invoice-entry/list';
export const entryDetailPath = (id: string) => `/invoice-entry/detail/${id}`;

/** Whether the roles may sign (签收): the server refuses anyone else with 权限不足. */
export const canSignEntry = (roles: readonly string[]) => roles.some((r) => r === 'admin' || INCOME_ENTRY_WRITE_ROLES.includes(r));
