/**
 * The single registry of page components: route pattern -> lazy component. Routes of areas whose
 * issue has not landed yet render the shared AreaPendingPage; pages.test.ts counts them.
 */
import { createElement, lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { FLAT_ROUTES } from '@zhyy/shared';
import { registerRecordPanel, type RecordPanelProps } from '../features/common/recordPanels';

export type PageComponent = LazyExoticComponent<ComponentType>;

export const AreaPendingPage: PageComponent = lazy(() => import('../features/common/AreaPendingPage'));

export const PAGES: Readonly<Record<string, PageComponent>> = {
  '/dashboard': lazy(() => import('../features/dashboard/Dashboard')),
  '/flow/start': lazy(() => import('../features/workflow/StartPage')),
  '/flow/todolist': lazy(() => import('../features/workflow/TodoListPage')),
  '/flow/zonghesearch': lazy(() => import('../features/workflow/SearchPage')),
  '/assistant/personalsetting': lazy(() => import('../features/workflow/PersonalSettings')),
  '/system/userlist': lazy(() => import('../features/system/UserList')),
  '/system/edituser/:id': lazy(() => import('../features/system/UserEdit')),
  '/system/userdetail/:id': lazy(() => import('../features/system/UserDetail')),
  '/system/dept-list': lazy(() => import('../features/system/DeptList')),
  '/system/dept-edit/:id': lazy(() => import('../features/system/DeptEdit')),
  '/system/geolocation': lazy(() => import('../features/system/Geolocation')),
  '/system/userrolelist': lazy(() => import('../features/system/RoleList')),
  '/system/report/todo-time-consuming': lazy(() => import('../features/system/TodoTimeConsuming')),
  '/system/report/ai-interface-statistic': lazy(() => import('../features/system/AiInterfaceStatistic')),
  '/system/useronline/list': lazy(() => import('../features/system/OnlineUsers')),
  '/system/log/list': lazy(() => import('../features/system/OperationLogList')),
  '/system/integratedsyncLogdetails': lazy(() => import('../features/system/SyncLogList')),
  '/system/filing-calendar': lazy(() => import('../features/system/FilingCalendarPage')),
  '/invoice/nuonuo/invoice-request-billing': lazy(() => import('../features/invoice/issuing/BillingPage')),
  '/invoice/nuonuo/invoice-retry-creation': lazy(() => import('../features/invoice/issuing/RetryPage')),
  '/invoice/nuonuo/red-confirm-apply': lazy(() => import('../features/invoice/redletter/RedConfirmPage')),
  '/invoice/nuonuo/invoice-cancellation': lazy(() => import('../features/invoice/cancellation/CancellationPage')),
  '/invoice/nuonuo/red-confirm-apply/edit/:id': lazy(() => import('../features/invoice/redletter/RedConfirmEdit')),
  '/invoice/nuonuo/invoice-synclog-details': lazy(() => import('../features/invoice/synclog/SyncLogPage')),
  '/invoice/invoicesetting/setting': lazy(() => import('../features/invoice/settings/SettingPage')),
  '/invoice/invoicesetting/buyerlist': lazy(() => import('../features/invoice/buyers/BuyerList')),
  '/invoice/invoicesetting/buyerdetail/:id': lazy(() => import('../features/invoice/buyers/BuyerDetail')),
  '/invoice/invoicesetting/buyeradd': lazy(() => import('../features/invoice/buyers/BuyerEdit')),
  '/invoice/invoicesetting/buyeredit/:id': lazy(() => import('../features/invoice/buyers/BuyerEdit')),
  '/invoice/invoiceaccount/invoice-list': lazy(() => import('../features/invoice/ledger/LedgerList')),
  '/invoice/invoiceaccount/invoice-detail/:id': lazy(() => import('../features/invoice/ledger/LedgerDetail')),
  '/invoice/invoiceaccount/invoice-upload/:id': lazy(() => import('../features/invoice/ledger/LedgerUpload')),
  '/invoice/invoiceaccount/digital-electric-red-ledger': lazy(() => import('../features/invoice/ledger/RedLedger')),
  '/invoice/invoiceaccount/digital-electric-red-ledger-detail/:id': lazy(() => import('../features/invoice/ledger/RedLedgerDetail')),
  '/invoice/invoiceaccount/invoice-item-apportionment': lazy(() => import('../features/invoice/apportionment/ProjectLedger')),
  '/invoice/invoiceaccount/contract-apportionment': lazy(() => import('../features/invoice/apportionment/ContractLedger')),
  '/invoice/invoiceaccount/project-change': lazy(() => import('../features/invoice/apportionment/ProjectChange')),
  '/invoice/invoiceaccount/contract-change': lazy(() => import('../features/invoice/apportionment/ContractChange')),
  '/invoice/invoicestatistics/apportionment-statistics': lazy(() => import('../features/invoice/statistics/ApportionmentStatistics')),
  '/invoice/invoicestatistics/temp-project-invoice': lazy(() => import('../features/invoice/statistics/TempProjectInvoice')),
  '/invoice/invoicestatistics/contract-statistics': lazy(() => import('../features/invoice/statistics/ContractStatistics')),
  '/invoice/invoicestatistics/temp-contract-invoice': lazy(() => import('../features/invoice/statistics/TempContractInvoice')),
  '/reimbursement/nuonuo/reimbursement/apply/list': lazy(() => import('../features/reimbursement/accounting/ApplyList')),
  '/reimbursement/edit/:id': lazy(() => import('../features/reimbursement/accounting/BillEdit')),
  '/reimbursement/revoke/list': lazy(() => import('../features/reimbursement/accounting/RevokeList')),
  '/reimbursement/revoke/add': lazy(() => import('../features/reimbursement/accounting/RevokeAdd')),
  '/reimbursement/nuonuo/synclog-details': lazy(() => import('../features/reimbursement/accounting/SyncLogPage')),
  '/income/invoicePool/list': lazy(() => import('../features/income/pool/PoolList')),
  '/income/invoicePool/detail/:id': lazy(() => import('../features/income/pool/PoolDetail')),
  '/income/invoicePool/other': lazy(() => import('../features/income/pool/PoolOther')),
  '/income/invoicePool/abnormal': lazy(() => import('../features/income/abnormal/AbnormalPage')),
  '/invoice-entry/edit/:id': lazy(() => import('../features/income/intake/upload/EntryEdit')),
  '/invoice-entry/list': lazy(() => import('../features/income/signing/EntryList')),
  '/invoice-entry/detail/:id': lazy(() => import('../features/income/signing/EntryDetail')),
  '/invoice-entry/sign/list': lazy(() => import('../features/income/signing/SignList')),
  '/invoice-entry/dept/sign': lazy(() => import('../features/income/signing/DeptSign')),
  '/invoice-entry/revoke/list': lazy(() => import('../features/income/signing/revoke/RevokeList')),
  '/invoice-entry/revoke/add': lazy(() => import('../features/income/signing/revoke/RevokeAdd')),
  '/invoice-entry/project/apportionment': lazy(() => import('../features/income/signing/project/Apportionment')),
  '/invoice-entry/project/change': lazy(() => import('../features/income/signing/project/ProjectChange')),
  '/invoice/calc-deduction/statistic': lazy(() => import('../features/income/transport/TransportDeduction')),
  '/invoice/deduction/deduction/list': lazy(() => import('../features/income/deduction/DeductionTick')),
  '/invoice/tax-rebate/list': lazy(() => import('../features/income/deduction/RebateTick')),
  '/income/invoice/log': lazy(() => import('../features/income/deduction/TickLog')),
  '/reimbursement/cost-setting': lazy(() => import('../features/reimbursement/settings/CostSettingPage')),
  '/invoice/deduction/deduction/statistic': lazy(() => import('../features/income/statistics/DeductionStatistic')),
  '/invoice/deduction/tax-rebate/statistic': lazy(() => import('../features/income/statistics/RebateStatistic')),
  '/reimbursement/account/reimbursement-list': lazy(() => import('../features/reimbursement/ledger/LedgerList')),
  '/reimbursement/account/summary': lazy(() => import('../features/reimbursement/ledger/SummaryPage')),
  '/reimbursement/account/laundry': lazy(() => import('../features/reimbursement/ledger/LaundryPage')),
  '/reimbursement/my-reimbursement-list': lazy(() => import('../features/reimbursement/apply/MyReimbursementList')),
  '/my/reimbursement/detail/:id': lazy(() => import('../features/reimbursement/apply/BillPage')),
  '/reimbursement/detail/:id': lazy(() => import('../features/reimbursement/apply/LedgerBillPage')),
  '/cost-management/account': lazy(() => import('../features/cost/ledger/LedgerPage')),
  '/cost-management/examine': lazy(() => import('../features/cost/examine/ExaminePage')),
  '/cost-management/summary': lazy(() => import('../features/cost/summary/SummaryPage')),
  '/costmanagement/setting': lazy(() => import('../features/cost/settings/CostSettingPage')),
  '/tender/contract/list': lazy(() => import('../features/tender/contracts/ContractListPage')),
  '/tender/contract/addcf/:contractType/:id': lazy(() => import('../features/tender/contracts/ContractEditPage')),
  '/tender/contract/addc/:contractType/:id': lazy(() => import('../features/tender/contracts/ContractEditPage')),
  '/tender/contract/edit/:contractType/:id': lazy(() => import('../features/tender/contracts/ContractEditPage')),
  '/tender/contract/detail/:contractType/:id': lazy(() => import('../features/tender/contracts/ContractDetailPage')),
  '/tender/framecontract-invoice-statistic': lazy(() => import('../features/tender/contracts/FrameStatisticPage')),
  '/tender/project': lazy(() => import('../features/tender/projects/ProjectListPage')),
  '/tender/project/detail/:id': lazy(() => import('../features/tender/projects/ProjectDetailPage')),
  '/tender/project/add': lazy(() => import('../features/tender/projects/ProjectEditPage')),
  '/tender/project/modify/:id': lazy(() => import('../features/tender/projects/ProjectEditPage')),
  '/tender/personnel-certificate/collect': lazy(() => import('../features/tender/people/CollectPage')),
  '/tender/personnel-certificate/personnel-info': lazy(() => import('../features/tender/people/PersonnelListPage')),
  '/tender/personnel-certificate/personnel-edit/:id': lazy(() => import('../features/tender/people/PersonnelEditPage')),
  '/tender/personnel-certificate/personnel-detail/:id': lazy(() => import('../features/tender/people/PersonnelDetailPage')),
  '/tender/personnel-certificate/professional-title': lazy(() => import('../features/tender/people/TitleListPage')),
  '/tender/personnel-certificate/title-certificate-add': lazy(() => import('../features/tender/people/TitleEditPage')),
  '/tender/personnel-certificate/title-certificate-modify/:id': lazy(() => import('../features/tender/people/TitleEditPage')),
  '/tender/personnel-certificate/qualification-certificate': lazy(() => import('../features/tender/people/CertificateListPage')),
  '/tender/personnel-certificate/qualification-certificate-add': lazy(() => import('../features/tender/people/CertificateEditPage')),
  '/tender/personnel-certificate/qualification-certificate-modify/:id': lazy(() => import('../features/tender/people/CertificateEditPage')),
  '/tender/file/performance-check': lazy(() => import('../features/tender/file/PerformanceCheckPage')),
  '/tender/file/performance-file-export': lazy(() => import('../features/tender/file/PerformanceExportPage')),
  '/tender/file/certificate-file-export2': lazy(() => import('../features/tender/file/CertificateExport2Page')),
  '/tender/file/certificate-file-export': lazy(() => import('../features/tender/file/CertificateExportPage')),
  '/tender/setting/edit': lazy(() => import('../features/tender/setting/TenderSettingPage')),
  '/tender/file/file-export-statistic': lazy(() => import('../features/tender/file/ExportStatisticPage')),
  '/tender/file/file-export-log': lazy(() => import('../features/tender/file/ExportLogPage')),
};

export function pageFor(pattern: string): PageComponent {
  return PAGES[pattern] ?? AreaPendingPage;
}

/** Route patterns still served by the shared pending page. */
export function pendingPatterns(): string[] {
  return FLAT_ROUTES.filter((r) => !(r.path in PAGES)).map((r) => r.path);
}

// The reimbursement bill behind an FY01 work item, shown in the workflow's WorkDrawer (features/common/recordPanels.ts).
registerRecordPanel(
  'reimbursement',
  lazy(() => import('../features/reimbursement/apply/BillApprovalPanel').then((m) => ({ default: (p: RecordPanelProps) => createElement(m.default, { billId: p.recordId, version: p.version }) }))),
);
