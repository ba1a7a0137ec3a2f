/** /api/syslog/*: operation log and integrated sync log calls the client makes (SPEC section 7). */
import { z } from '../zod-locale.js';
import { text } from './common.js';
import { OperationLogType, SyncLogStatus, SyncSystem } from '../enums.js';

export const AddOperationLogBody = z.object({
  description: text().trim().min(1, '请填写日志内容').max(500, '日志内容不能超过500字'),
  type: z
    .number()
    .int()
    .refine((v) => OperationLogType.has(v), '日志类型不正确'),
});
export type AddOperationLogBody = z.infer<typeof AddOperationLogBody>;

export const AddFileDownLogBody = z.object({
  description: text().trim().min(1, '请填写日志内容').max(500, '日志内容不能超过500字'),
});

/** A reported exchange has finished: success or failure (pending is the server's own state). */
const reportedStatus = (v: number) => v === SyncLogStatus.success || v === SyncLogStatus.failure;

export const AddSyncLogDetailBody = z.object({
  status: z.number().int().refine(reportedStatus, '状态不正确'),
  memo: text().max(2000, '说明不能超过2000字').default(''),
  type: text().trim().min(1, '请填写同步类型').max(100, '同步类型不能超过100字'),
  system: z
    .number()
    .int()
    .refine((v) => SyncSystem.has(v), '系统编码不正确')
    .default(SyncSystem.platform),
  request: text().max(100_000).optional(),
  response: text().max(100_000).optional(),
});
export type AddSyncLogDetailBody = z.infer<typeof AddSyncLogDetailBody>;

/** /syslog/add-integrated-synclog: the same record, status defaulting to success. */
export const AddSyncLogBody = AddSyncLogDetailBody.extend({
  status: z
    .number()
    .int()
    .refine(reportedStatus, '状态不正确')
    .default(SyncLogStatus.success),
});

/** A client error reported from the browser's local log (production only). */
export const ClientErrorBody = z.object({
  entries: z
    .array(
      z.object({
        message: text().max(2000),
        url: text().max(1000).optional(),
        stack: text().max(8000).optional(),
        time: text().max(40),
      }),
    )
    .max(25),
});
