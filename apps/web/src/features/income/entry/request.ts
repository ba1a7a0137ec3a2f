/** The 发票签收 pages' paths and query key. Who may sign: `canWriteIncomeEntry` (@zhyy/shared; role 16 reads only). */
export const ENTRY_KEY = ['income', 'entry'] as const;
export const ENTRY_LIST = '/invoice-entry/list';
export const entryDetailPath = (id: string) => `/invoice-entry/detail/${id}`;
