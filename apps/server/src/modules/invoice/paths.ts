/** The access rules of the invoice calls: each names the pages of the shared route table that use it. */
import { pages } from '../../platform/access.js';

const N = '/invoice/nuonuo';
export const BILLING = `${N}/invoice-request-billing`;
export const RETRY = `${N}/invoice-retry-creation`;
export const RED = `${N}/red-confirm-apply`;
export const RED_EDIT = `${N}/red-confirm-apply/edit/:id`;
export const CANCELLATION = `${N}/invoice-cancellation`;
export const SYNCLOG = `${N}/invoice-synclog-details`;
export const SETTING = '/invoice/invoicesetting/setting';
export const BUYER_PAGES = ['/invoice/invoicesetting/buyerlist', '/invoice/invoicesetting/buyerdetail/:id', '/invoice/invoicesetting/buyeradd', '/invoice/invoicesetting/buyeredit/:id'];
/** The ledger pages (roles 1, 5, 11): reading an invoice and its files. */
export const LEDGER_PAGES = ['/invoice/invoiceaccount/invoice-list', '/invoice/invoiceaccount/invoice-detail/:id', '/invoice/invoiceaccount/digital-electric-red-ledger', '/invoice/invoiceaccount/digital-electric-red-ledger-detail/:id'];

export const access = {
  billing: { access: pages(BILLING) },
  retry: { access: pages(RETRY) },
  /** The entry form and the lookups it uses: issuing and retrying (correction). */
  entry: { access: pages(BILLING, RETRY) },
  red: { access: pages(RED, RED_EDIT) },
  cancellation: { access: pages(CANCELLATION) },
  synclog: { access: pages(SYNCLOG) },
  setting: { access: pages(SETTING) },
  /** The buyer pages and the entry form's buyer picker. */
  buyers: { access: pages(...BUYER_PAGES, BILLING, RETRY) },
  buyerWrite: { access: pages(...BUYER_PAGES) },
  /** Lookups of projects, contracts and tax codes: the entry form and the settings. */
  lookups: { access: pages(BILLING, RETRY, SETTING, RED, RED_EDIT) },
  /** Reading one invoice (and its files): every working screen and the ledgers. */
  read: { access: pages(BILLING, RETRY, RED, RED_EDIT, CANCELLATION, SYNCLOG, ...LEDGER_PAGES) },
};

export const tags = ['销项发票'];
