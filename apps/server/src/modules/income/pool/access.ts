/** The access rules of the pool calls: each names the pages of the shared route table that use it (roles 1, 13; manual entry also 14, 16). */
import { pages } from '../../../platform/access.js';

const P = '/income/invoicePool';
export const POOL = { list: `${P}/list`, detail: `${P}/detail/:id`, other: `${P}/other`, abnormal: `${P}/abnormal` };

export const access = {
  list: { access: pages(POOL.list) },
  other: { access: pages(POOL.other) },
  abnormal: { access: pages(POOL.abnormal) },
  /** One invoice: its detail page and every pool list that opens it. */
  detail: { access: pages(POOL.detail, POOL.list, POOL.other, POOL.abnormal) },
  /** Manual entry of a paper invoice: from the pool list and from 进项发票编辑 (roles 1, 13, 14, 16, as the upload). */
  entry: { access: pages(POOL.list, '/invoice-entry/edit/:id') },
};

export const tags = ['进项票池'];
