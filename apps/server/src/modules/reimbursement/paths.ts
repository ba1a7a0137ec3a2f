/**
 * The pages of the /reimbursement group (SPEC section 2) and the access rule of each call: a call names
 * the pages that use it, so the route table's roles decide (everyone applies; 1, 12, 16 push and read the
 * ledgers; 1, 12 the sync log and the settings).
 */
import { pages } from '../../platform/access.js';

export const PAGE = {
  my: '/reimbursement/my-reimbursement-list',
  myDetail: '/my/reimbursement/detail/:id',
  apply: '/reimbursement/nuonuo/reimbursement/apply/list',
  revokeList: '/reimbursement/revoke/list',
  revokeAdd: '/reimbursement/revoke/add',
  synclog: '/reimbursement/nuonuo/synclog-details',
  edit: '/reimbursement/edit/:id',
  ledger: '/reimbursement/account/reimbursement-list',
  detail: '/reimbursement/detail/:id',
  summary: '/reimbursement/account/summary',
  laundry: '/reimbursement/account/laundry',
  setting: '/reimbursement/cost-setting',
} as const;

export const access = {
  /** Everyone: my bills, applying, the pool picker, the upload. */
  mine: { access: pages(PAGE.my, PAGE.myDetail) },
  /** 一键报销, its edit page, the revocations (roles 1, 12, 16). */
  push: { access: pages(PAGE.apply, PAGE.edit) },
  revoke: { access: pages(PAGE.revokeList, PAGE.revokeAdd) },
  /** Roles 1, 12. */
  synclog: { access: pages(PAGE.synclog) },
  /** The ledgers and reports (roles 1, 12, 16). */
  ledger: { access: pages(PAGE.ledger, PAGE.detail) },
  summary: { access: pages(PAGE.summary) },
  laundry: { access: pages(PAGE.laundry) },
  /** Roles 1, 12. */
  setting: { access: pages(PAGE.setting) },
};

export const tags = ['费用报销'];
