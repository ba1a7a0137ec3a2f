/** The 发票签收 pages' paths and query key. Who may sign: `canWriteIncomeEntry` (@zhyy/shared; role 16 reads only). */
export const ENTRY_KEY = ['income', 'entry'] as const;
export const ENTRY_LIST = '/invoice-entry/list';
export const entryDetailPath = (id: string) => `/invoice-entry/detail/${id}`;
/** 进项发票编辑: `new` for uploading or entering invoices, an invoice's id to add files to it. */
export const entryEditPath = (id: string) => `/invoice-entry/edit/${id}`;
