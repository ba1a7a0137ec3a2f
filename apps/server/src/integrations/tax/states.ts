/** The Chinese words of the tax service's states (invoice results and red-letter confirmations). */
import type { RedConfirmState } from './types.js';

export const STATUS_MESSAGES: Record<number, string> = {
  20: '开票中',
  21: '开票成功签章中',
  2: '开票完成（最终状态）',
  22: '开票失败',
  24: '开票成功签章失败',
  31: '作废中',
  3: '已作废',
};

export const RED_STATE_MESSAGES: Record<RedConfirmState, string> = {
  '01': '无需确认',
  '02': '销方录入待购方确认',
  '03': '购方录入待销方确认',
  '04': '购销双方已确认',
  '05': '作废（购方拒绝）',
  '06': '作废（销方拒绝）',
  '07': '作废（超过72小时未确认）',
  '08': '作废（发起方已撤销）',
  '09': '作废（确认后撤销）',
  '10': '作废（异常凭证）',
  '15': '申请中',
  '16': '申请失败',
};
