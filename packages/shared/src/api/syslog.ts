/** /api/syslog/*: operation log and integrated sync log calls the client makes (SPEC section 7). */
import { z } from 'zod';
import { OperationLogType, SyncLogStatus, SyncSystem } from '../enums.js';

export const AddOperationLogBody = z.object({
  description: z.string().trim().min(1, '请填写日志内容').max(500, '日志内容不能超过500字'),
  type: z
    .number()
    .int()
    .refine((v) => OperationLogType.has(v), '日志类型不正确'),
});
export type AddOperationLogBody = z.infer<typeof AddOperationLogBody>;

export const AddFileDownLogBody = z.object({
  description: z.string().trim().min(1, '请填写日志内容').max(500, '日志内容不能超过500字'),
});

export const AddSyncLogDetailBody = z.object({
  status: z.number().int().refine((v) => SyncLogStatus.has(v), '状态不正确'),
  memo: z.string().max(2000, '说明不能超过2000字').default(''),
  type: z.string().trim().min(1, '请填写同步类型').max(100, '同步类型不能超过100字'),
  system: z
    .number()
    .int()
    .refine((v) => SyncSystem.has(v), '系统编码不正确')
    .default(SyncSystem.platform),
  request: z.string().max(100_000).optional(),
  response: z.string().max(100_000).optional(),
});
export type AddSyncLogDetailBody = z.infer<typeof AddSyncLogDetailBody>;

/** /syslog/add-integrated-synclog: the same record, status defaulting to success. */
export const AddSyncLogBody = AddSyncLogDetailBody.extend({
  status: z
    .number()
    .int()
    .refine((v) => SyncLogStatus.has(v), '状态不正确')
    .default(SyncLogStatus.success),
});

/** A client error reported from the browser's local log (production only). */
export const ClientErrorBody = z.object({
  entries: z
    .array(
      z.object({
        message: z.string().max(2000),
        url: z.string().max(1000).optional(),
        stack: z.string().max(8000).optional(),
        time: z.string().max(40),
      }),
    )
    .max(25),
});
