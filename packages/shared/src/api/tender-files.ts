/**
 * 投标管理 (issue 17), files and settings: attachments of any tender record (contract pages, title and
 * certificate scans) kept in file storage, and the tender settings (watermark, performance window and
 * threshold, certificate reminder days). docs/tender.md "Files and settings" describes the calls.
 */
import { z } from '../zod-locale.js';
import { CERT_REMIND_DAYS, TENDER_DEFAULTS } from '../tender-rules.js';
import { text, Uuid } from './common.js';

/** The largest attachment (bytes). */
export const TENDER_ATTACHMENT_MAX_BYTES = 50 * 1024 * 1024;
export const TENDER_ATTACHMENT_TOO_LARGE = '文件不能超过50MB';
export const TENDER_ATTACHMENT_FORMAT = '只能上传PDF、JPG或PNG文件';
/** The formats an attachment may have, read from its first bytes. */
export const TENDER_ATTACHMENT_MIME = { pdf: 'application/pdf', jpg: 'image/jpeg', png: 'image/png' } as const;

const OwnerKind = text({ error: '请指定附件所属类型' }).regex(/^[a-z][a-z0-9-]{0,29}$/, '附件所属类型不正确');
const OwnerId = text({ error: '请指定附件所属记录' }).trim().min(1, '请指定附件所属记录').max(64, '附件所属记录不正确');

/** The query string of POST /api/tender/attachment/upload (the body is the raw file, application/octet-stream). */
export const TenderAttachmentUploadQuery = z.object({
  ownerKind: OwnerKind,
  ownerId: OwnerId,
  /** AttachmentType code, or 0 for a file of no particular type. */
  kind: z.coerce.number({ error: '附件类型不正确' }).int('附件类型不正确').min(0, '附件类型不正确').max(99999, '附件类型不正确'),
  name: text({ error: '请指定文件名' })
    .trim()
    .min(1, '请指定文件名')
    .max(200, '文件名不能超过200个字符')
    .refine((v) => !/[\\/]/.test(v), '文件名不能包含斜杠'),
});
export type TenderAttachmentUploadQuery = z.infer<typeof TenderAttachmentUploadQuery>;

export const TenderAttachmentListBody = z.object({
  ownerKind: OwnerKind,
  ownerIds: z.array(OwnerId, { error: '请指定附件所属记录' }).max(1000, '一次最多查询1000条记录的附件'),
});
export type TenderAttachmentListBody = z.infer<typeof TenderAttachmentListBody>;

export const TenderAttachmentIdBody = z.object({ id: Uuid });
export type TenderAttachmentIdBody = z.infer<typeof TenderAttachmentIdBody>;

/** One attachment as the calls answer it. */
export interface TenderAttachment {
  id: string;
  ownerKind: string;
  ownerId: string;
  kind: number;
  fileName: string;
  mime: string;
  size: number;
  sha256: string;
  uploadedBy: string;
  uploadedAt: string;
}

/** file-link's answer: a 10-minute link the file viewer (/file/view) opens without a token. */
export interface TenderAttachmentLink {
  url: string;
  expiresAt: string;
  name: string;
  type: string;
}

// ---- Settings (/tender/setting/edit) ----

export const TENDER_WINDOW_YEARS = { min: 1, max: 10 } as const;

export const TenderSettingsBody = z.object({
  watermark: text({ error: '请填写默认水印文字' }).trim().min(1, '请填写默认水印文字').max(40, '默认水印文字不能超过40个字符'),
  windowYears: z
    .number({ error: '业绩年限须为整数' })
    .int('业绩年限须为整数')
    .min(TENDER_WINDOW_YEARS.min, `业绩年限须在${TENDER_WINDOW_YEARS.min}至${TENDER_WINDOW_YEARS.max}年之间`)
    .max(TENDER_WINDOW_YEARS.max, `业绩年限须在${TENDER_WINDOW_YEARS.min}至${TENDER_WINDOW_YEARS.max}年之间`),
  thresholdFen: z.number({ error: '业绩金额门槛须为数字' }).int('业绩金额门槛须精确到分').min(0, '业绩金额门槛不能为负数').max(1e13, '业绩金额门槛超出范围'),
  remindDays: z
    .array(z.number({ error: '提醒天数须为整数' }).int('提醒天数须为整数').min(1, '提醒天数须在1至365天之间').max(365, '提醒天数须在1至365天之间'), { error: '请填写提醒天数' })
    .min(1, '至少设置一个提醒天数')
    .max(10, '提醒天数最多设置10个')
    .refine((v) => new Set(v).size === v.length, '提醒天数不能重复')
    .transform((v) => [...v].sort((a, b) => b - a)),
});
export type TenderSettingsInput = z.input<typeof TenderSettingsBody>;
export type TenderSettings = z.output<typeof TenderSettingsBody>;

/** What a company starts with before anyone saves the settings. */
export const TENDER_SETTING_DEFAULTS: TenderSettings = {
  watermark: TENDER_DEFAULTS.watermark,
  windowYears: TENDER_DEFAULTS.windowYears,
  thresholdFen: TENDER_DEFAULTS.thresholdFen,
  remindDays: [...CERT_REMIND_DAYS],
};

export interface TenderSettingsView extends TenderSettings {
  /** Who saved them last and when (null: never saved, the defaults). */
  updatedBy: string | null;
  updatedAt: string | null;
}
