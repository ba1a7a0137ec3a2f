/** 报销设置 calls (issue 15, /reimbursement/cost-setting): categories, cost centres, standards, cities, grades, invoice age, accounting interface. */
import type { PageResult, ReimbAccountingBody, ReimbCategoryBody, ReimbGradeListQuery, ReimbGradeRow, ReimbSettingView, ReimbStandardsBody } from '@zhyy/shared';
import { api } from './clients';

const P = '/reimbursement/setting';

export const reimbSettingApi = {
  get: () => api.post<ReimbSettingView>(`${P}/get`, {}),
  addCategory: (body: ReimbCategoryBody) => api.request<ReimbSettingView>(`${P}/category/add`, body),
  editCategory: (body: ReimbCategoryBody) => api.request<ReimbSettingView>(`${P}/category/edit`, body),
  enableCategory: (code: string, enabled: boolean) => api.request<ReimbSettingView>(`${P}/category/enable`, { code, enabled }),
  deleteCategory: (code: string) => api.request<ReimbSettingView>(`${P}/category/delete`, { code }),
  saveCostCentre: (deptId: string, centreCode: string, centreName: string) => api.request<ReimbSettingView>(`${P}/cost-centre/save`, { deptId, centreCode, centreName }),
  deleteCostCentre: (deptId: string) => api.request<ReimbSettingView>(`${P}/cost-centre/delete`, { deptId }),
  saveStandards: (body: ReimbStandardsBody) => api.request<ReimbSettingView>(`${P}/standard/save`, body),
  addCity: (city: string, tier: number) => api.request<ReimbSettingView>(`${P}/city/add`, { city, tier }),
  deleteCity: (city: string) => api.request<ReimbSettingView>(`${P}/city/delete`, { city }),
  grades: (q: Partial<ReimbGradeListQuery>) => api.post<PageResult<ReimbGradeRow>>(`${P}/grade/list`, q),
  saveGrade: (userId: string, grade: string) => api.request<unknown>(`${P}/grade/save`, { userId, grade }),
  saveInvoiceAge: (invoiceAgeDays: number) => api.request<ReimbSettingView>(`${P}/invoice-age/save`, { invoiceAgeDays }),
  saveAccounting: (body: Partial<ReimbAccountingBody> & { mode: ReimbAccountingBody['mode'] }) => api.request<ReimbSettingView>(`${P}/accounting/save`, body),
  testAccounting: () => api.request<{ ok: boolean; message: string }>(`${P}/accounting/test`, {}),
};
