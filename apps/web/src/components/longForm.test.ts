/** components/longForm: the plain sentence of a refusal and the field it names (issue 31). */
import { describe, expect, it } from 'vitest';
import { fieldOfMessage, plainMessage } from './longForm';

const LABELS = { workFrom: '工期开始日期', workTo: '工期结束日期', code: '合同编号', amountYuan: '合同金额（元）', remark: '备注' };

describe('long forms', () => {
  it('drops the developer prefix', () => {
    expect(plainMessage('参数错误：工期结束日期不能早于开始日期')).toBe('工期结束日期不能早于开始日期');
    expect(plainMessage('合同编号HT-1已被「旧合同」使用')).toBe('合同编号HT-1已被「旧合同」使用');
  });
  it('finds the field a sentence names, the longest label first; none for a sentence naming none', () => {
    expect(fieldOfMessage('工期结束日期不能早于开始日期', LABELS)).toBe('workTo');
    expect(fieldOfMessage('合同金额不能为负数', LABELS)).toBe('amountYuan');
    expect(fieldOfMessage('网络异常，请稍后重试', LABELS)).toBeNull();
  });
});
