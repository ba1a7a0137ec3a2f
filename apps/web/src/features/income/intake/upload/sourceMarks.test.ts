/** Issue 13, 进项发票编辑: each recognised field's source, on the form field it filled, and a corrected value told apart. */
import { describe, expect, it } from 'vitest';
import type { RecognisedFieldView, UploadRecognition } from '@zhyy/shared';
import { formFieldOf, sourceMarks } from './sourceMarks';

const f = (key: string, label: string, value: string, source: string, sourceLabel: string): RecognisedFieldView => ({ key, label, value, source, sourceLabel });

describe('source marks (issue 13)', () => {
  it('maps the recognised keys onto the entry form; a 20-digit number is the 数电 number', () => {
    expect(formFieldOf('kindCode', {})).toBe('kind');
    expect(formFieldOf('amount', {})).toBe('amountExcl');
    expect(formFieldOf('total', {})).toBe('amountIncl');
    expect(formFieldOf('tax', {})).toBe('tax');
    expect(formFieldOf('invoiceNo', { invoiceNo: '05836271' })).toBe('invoiceNo');
    expect(formFieldOf('invoiceNo', { digitalNo: '25322000000104857316' })).toBe('digitalNo');
    expect(formFieldOf('sellerTaxNo', {})).toBe('sellerTaxNo');
    expect(formFieldOf('somethingElse', {})).toBeNull();
  });

  it('marks each field with its source; a value changed since is marked as differing', () => {
    const fields = [
      f('kindCode', '发票种类', '82', 'xml', 'XML'),
      f('invoiceNo', '发票号码', '25322000000104857316', 'qr', '二维码'),
      f('sellerName', '销方名称', '苏州明达机电设备有限公司', 'pdf-text', 'PDF文字'),
      f('total', '价税合计', '16916.10', 'qr', '二维码'),
      f('amount', '金额', '14970.00', 'pdf-text', 'PDF文字'),
    ];
    const draft: UploadRecognition['draft'] = { kind: '82', digitalNo: '25322000000104857316', sellerName: '苏州明达机电设备有限公司', amountIncl: 1691610, amountExcl: 1497000 };
    const same = sourceMarks(fields, draft, { ...draft });
    expect(Object.keys(same).sort()).toEqual(['amountExcl', 'amountIncl', 'digitalNo', 'kind', 'sellerName']);
    expect(same.kind).toMatchObject({ sourceLabel: 'XML', differs: false });
    expect(same.digitalNo).toMatchObject({ sourceLabel: '二维码', value: '25322000000104857316', differs: false });
    expect(same.sellerName).toMatchObject({ source: 'pdf-text', sourceLabel: 'PDF文字', differs: false });
    expect(same.amountIncl).toMatchObject({ sourceLabel: '二维码', differs: false });
    // A seller corrected and a total changed by a cent: both differ; the untouched ones do not. Surrounding blanks do not count.
    const corrected = sourceMarks(fields, draft, { ...draft, sellerName: ' 苏州明达机电设备有限公司 ', amountIncl: 1691611, amountExcl: undefined });
    expect(corrected.sellerName?.differs).toBe(false);
    expect(corrected.amountIncl?.differs).toBe(true);
    expect(corrected.amountExcl?.differs).toBe(true);
    expect(corrected.kind?.differs).toBe(false);
  });

  it('a recognised value the draft could not take (an unknown kind) is marked as differing from the empty field', () => {
    const marks = sourceMarks([f('kindCode', '发票种类', '77', 'qr', '二维码')], {}, {});
    expect(marks.kind).toMatchObject({ value: '77', differs: true });
  });
});
