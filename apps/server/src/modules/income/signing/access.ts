/**
 * Who may do what on the 发票签收 pages (route table: /invoice-entry/*, under 进项管理, roles 1, 13, 14, 16).
 * Reading: the page's roles. Changing (sign, revoke, allocate, change): roles 1, 13 and 14 — role 16
 * 报销进项成本 reads only (issue 13: "role 14 signs …; role 16 reads; role 13 all"). The route table
 * gives 16 the same pages, so the write rule is a record-level check in the handler (as user
 * administration's "who manages whom"): 403 权限不足 before anything is read or written.
 */
import type { FastifyRequest } from 'fastify';
import { canWriteIncomeEntry } from '@zhyy/shared';
import { pages } from '../../../platform/access.js';
import { forbidden } from '../../../platform/envelope.js';

const E = '/invoice-entry';
export const ENTRY = {
  list: `${E}/list`,
  detail: `${E}/detail/:id`,
  sign: `${E}/sign/list`,
  revokeList: `${E}/revoke/list`,
  revokeAdd: `${E}/revoke/add`,
  dept: `${E}/dept/sign`,
  apportion: `${E}/project/apportionment`,
  change: `${E}/project/change`,
};

export const access = {
  list: { access: pages(ENTRY.list, ENTRY.sign) },
  detail: { access: pages(ENTRY.detail, ENTRY.list, ENTRY.sign, ENTRY.revokeList, ENTRY.dept, ENTRY.apportion, ENTRY.change) },
  sign: { access: pages(ENTRY.sign, ENTRY.list) },
  revokeList: { access: pages(ENTRY.revokeList) },
  revokeAdd: { access: pages(ENTRY.revokeAdd) },
  dept: { access: pages(ENTRY.dept) },
  apportion: { access: pages(ENTRY.apportion) },
  change: { access: pages(ENTRY.change) },
};

export function assertWriter(req: FastifyRequest): void {
  if (!canWriteIncomeEntry(req.user?.roles ?? [])) throw forbidden();
}

export const tags = ['发票签收'];
