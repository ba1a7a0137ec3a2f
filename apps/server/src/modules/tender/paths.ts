/**
 * The pages of the /tender group (SPEC section 2) and the access rule of each call: a call names the
 * pages that use it, so the route table's roles decide (contracts: read by the group, add 1, 4, 6, edit
 * 1, 4, 6, 7, 8; projects 1, 4; people and certificates 1, 6, 15; tender files 1, 6, 9, 23, their log
 * and statistics 1, 6; settings 1, 6).
 */
import { pages } from '../../platform/access.js';

const T = '/tender';
export const PAGE = {
  contractList: `${T}/contract/list`,
  contractAddFrame: `${T}/contract/addcf/:contractType/:id`,
  contractAdd: `${T}/contract/addc/:contractType/:id`,
  contractEdit: `${T}/contract/edit/:contractType/:id`,
  contractDetail: `${T}/contract/detail/:contractType/:id`,
  frameStatistic: `${T}/framecontract-invoice-statistic`,
  project: `${T}/project`,
  projectDetail: `${T}/project/detail/:id`,
  projectAdd: `${T}/project/add`,
  projectModify: `${T}/project/modify/:id`,
  collect: `${T}/personnel-certificate/collect`,
  personnelInfo: `${T}/personnel-certificate/personnel-info`,
  personnelEdit: `${T}/personnel-certificate/personnel-edit/:id`,
  personnelDetail: `${T}/personnel-certificate/personnel-detail/:id`,
  titles: `${T}/personnel-certificate/professional-title`,
  titleAdd: `${T}/personnel-certificate/title-certificate-add`,
  titleModify: `${T}/personnel-certificate/title-certificate-modify/:id`,
  qualifications: `${T}/personnel-certificate/qualification-certificate`,
  qualificationAdd: `${T}/personnel-certificate/qualification-certificate-add`,
  qualificationModify: `${T}/personnel-certificate/qualification-certificate-modify/:id`,
  performanceCheck: `${T}/file/performance-check`,
  performanceExport: `${T}/file/performance-file-export`,
  certificateExport2: `${T}/file/certificate-file-export2`,
  certificateExport: `${T}/file/certificate-file-export`,
  exportStatistic: `${T}/file/file-export-statistic`,
  exportLog: `${T}/file/file-export-log`,
  setting: `${T}/setting/edit`,
} as const;

/** The contract pages: reading is open to the whole group (the list and detail). */
const CONTRACT_READ = [PAGE.contractList, PAGE.contractDetail] as const;
/** The people pages (1, 6, 15). */
const PEOPLE = [PAGE.collect, PAGE.personnelInfo, PAGE.personnelEdit, PAGE.personnelDetail, PAGE.titles, PAGE.titleAdd, PAGE.titleModify, PAGE.qualifications, PAGE.qualificationAdd, PAGE.qualificationModify] as const;
/** The tender file pages (1, 6, 9, 23). */
const FILES = [PAGE.performanceCheck, PAGE.performanceExport, PAGE.certificateExport2, PAGE.certificateExport] as const;

export const access = {
  contractRead: { access: pages(...CONTRACT_READ) },
  /** Adding a contract (1, 4, 6). */
  contractAdd: { access: pages(PAGE.contractAddFrame, PAGE.contractAdd) },
  /** Editing one, its pages included (1, 4, 6, 7, 8). */
  contractEdit: { access: pages(PAGE.contractEdit) },
  frameStatistic: { access: pages(PAGE.frameStatistic) },
  project: { access: pages(PAGE.project) },
  /** The choices the contract and project editors offer (projects, frame contracts, staff): every contract and project page. */
  contractPick: { access: pages(...CONTRACT_READ, PAGE.contractAddFrame, PAGE.contractAdd, PAGE.contractEdit, PAGE.project, PAGE.projectAdd, PAGE.projectModify, PAGE.projectDetail) },
  /** The staff a contract or project editor names as manager (names, login names, departments): the editors and the project pages only, not the readers of the contract list. */
  staffPick: { access: pages(PAGE.contractAddFrame, PAGE.contractAdd, PAGE.contractEdit, PAGE.project, PAGE.projectAdd, PAGE.projectModify) },
  people: { access: pages(...PEOPLE) },
  files: { access: pages(...FILES) },
  exportAdmin: { access: pages(PAGE.exportStatistic, PAGE.exportLog) },
  setting: { access: pages(PAGE.setting) },
  /**
   * The attachment calls (upload, list, delete, file-link): every page that shows a tender record's files;
   * the owner's canRead/canWrite decide inside (attachment/owners.ts).
   */
  attachments: { access: pages(PAGE.contractList, PAGE.contractDetail, PAGE.contractAddFrame, PAGE.contractAdd, PAGE.contractEdit, PAGE.projectDetail, ...PEOPLE, ...FILES) },
  /** The settings a tender page reads (window, threshold, watermark, certificate kinds). */
  settingRead: { access: pages(PAGE.setting, ...FILES, ...PEOPLE, ...CONTRACT_READ) },
};

export const PEOPLE_PAGES = PEOPLE;
export const FILE_PAGES = FILES;
export const tags = ['投标管理'];
