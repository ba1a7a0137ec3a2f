/**
 * Issue 29 items 3, 6 and 8, the rules alone: the 数电 toll invoice (dtoll) recognised from its XML (no
 * InherentLabel: fixtures/income/invoice-sd-toll.xml), its PDF text and entry; which kinds may be ticked
 * (公告2019年第45号: 专票, 海关缴款书, 通行费; 公告2024年第8号 / 第9号: the 数电 rail and air tickets, not the
 * paper ones); the transport computation leaves the 数电 tickets out (shared isDigitalTicket).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IncomeKind, isDigitalTicket, isTickableKind, NOT_TICKABLE_MESSAGE } from '@zhyy/shared';
import { checkCustomsTickRequest } from '../src/integrations/tax/tick-rules.js';
import { tickRefusal, type TickRow } from '../src/modules/income/deduction/rules.js';
import { recognise } from '../src/modules/income/intake/recognition/index.js';
import { tollKind } from '../src/modules/income/intake/recognition/kinds.js';
import { mergeReadings } from '../src/modules/income/intake/recognition/merge.js';
import { readInvoiceText } from '../src/modules/income/intake/recognition/text-fields.js';
import { draftOf } from '../src/modules/income/intake/upload.js';

const TOLL_XML = readFileSync(new URL('./fixtures/income/invoice-sd-toll.xml', import.meta.url));
const TOLL_NO = '26322000000211304587';

describe('数电 toll invoice: the kind from XML, text and QR', () => {
  it('the XML without InherentLabel is a 数电 toll (dtoll) with its figures; the form gets the kind and the 20-digit number', async () => {
    const r = await recognise({ name: 'toll.xml', bytes: new Uint8Array(TOLL_XML) });
    expect(r.fields.kindCode).toEqual({ value: 'dtoll', source: 'xml' });
    expect([r.fields.invoiceNo?.value, r.fields.amount?.value, r.fields.tax?.value, r.fields.total?.value]).toEqual([TOLL_NO, '388.35', '11.65', '400.00']);
    expect(r.warnings).toEqual([]);
    expect(draftOf(r)).toMatchObject({ kind: 'dtoll', digitalNo: TOLL_NO, issueDate: '2026-04-02', amountExcl: 38835, tax: 1165, amountIncl: 40000 });
    expect(draftOf(r).lines?.map((l) => [l.name, l.amount, l.tax])).toEqual([['*经营租赁*通行费', 29126, 874], ['*经营租赁*通行费', 9709, 291]]);
    expect(IncomeKind.label('dtoll')).toBe('数电发票（通行费）');
  });

  it('a 普通发票 label with toll lines is still the toll; other lines keep 82; a 专票 label stays 81', async () => {
    const xml = (label: string, item = '*经营租赁*通行费') =>
      TOLL_XML.toString('utf8').replace('</Version>', `</Version><InherentLabel><GeneralOrSpecialVAT><LabelCode>${label}</LabelCode></GeneralOrSpecialVAT></InherentLabel>`).replaceAll('*经营租赁*通行费', item);
    const kind = async (x: string) => (await recognise({ name: 'a.xml', bytes: new TextEncoder().encode(x) })).fields.kindCode?.value;
    expect(await kind(xml('02'))).toBe('dtoll');
    expect(await kind(xml('02', '*餐饮服务*餐费'))).toBe('82');
    expect(await kind(xml('01'))).toBe('81');
    // No label and no toll line: no kind is guessed.
    expect(await kind(TOLL_XML.toString('utf8').replaceAll('*经营租赁*通行费', '*餐饮服务*餐费'))).toBeUndefined();
  });

  it('PDF text: 通行费 with the 通行日期 columns and a 20-digit number is the 数电 toll; an 8-digit one stays 14', () => {
    const face = (no: string, title: string) => `${title} 通行费 发票号码：${no} 开票日期：2026年04月02日 项目名称 车牌号 类型 通行日期起 通行日期止 金额 税率 税额`;
    expect(readInvoiceText(face(TOLL_NO, '电子发票（普通发票）')).kindCode).toBe('dtoll');
    expect(readInvoiceText(face('12345678', '增值税电子普通发票')).kindCode).toBe('14');
    expect(readInvoiceText(`电子发票（普通发票） 发票号码：${TOLL_NO} 项目名称 *餐饮服务*餐费`).kindCode).toBe('82');
  });

  it("the QR's 32 (82) does not contradict the XML's toll, and the toll read elsewhere wins over it", () => {
    const qr = { source: 'qr' as const, fields: { kindCode: '82', invoiceNo: TOLL_NO } };
    expect(mergeReadings([qr, { source: 'xml', fields: { kindCode: 'dtoll', invoiceNo: TOLL_NO } }])).toEqual({ fields: { kindCode: { value: 'dtoll', source: 'xml' }, invoiceNo: { value: TOLL_NO, source: 'xml' } }, warnings: [] });
    expect(mergeReadings([qr, { source: 'pdf-text', fields: { kindCode: 'dtoll' } }]).fields.kindCode).toEqual({ value: 'dtoll', source: 'pdf-text' });
    expect(mergeReadings([{ source: 'qr', fields: { kindCode: '81' } }, { source: 'xml', fields: { kindCode: 'dtoll' } }]).warnings).toHaveLength(1);
  });

  it('the rule alone', () => {
    expect([tollKind(undefined, TOLL_NO, true), tollKind('82', TOLL_NO, true), tollKind('14', TOLL_NO, true), tollKind('81', TOLL_NO, true)]).toEqual(['dtoll', 'dtoll', 'dtoll', '81']);
    expect([tollKind('14', '12345678', true), tollKind('82', TOLL_NO, false), tollKind(undefined, TOLL_NO, false)]).toEqual(['14', '82', undefined]);
  });
});

describe('tick eligibility (公告2019年第45号; 公告2024年第8号, 第9号)', () => {
  const P = { period: '202611', windowFrom: '2017-01-01', windowTo: '2026-11-30', tickBookedOnly: false };
  const row = (o: Partial<TickRow> = {}): TickRow => ({
    kind: '81', digital_no: '', issue_date: '2026-11-02', tax: 900, invoice_state: 0, red_pending: 0, risk_level: '01', verify_state: 1, buyer_mismatch: 0, duplicate_of: null,
    booking_state: '01', vat_usage: 0, tick_state: 0, tick_period: '', ...o,
  });
  const D20 = '26339132621000219582';

  it('the 数电 rail and air tickets (20-digit number) are tickable, the paper ones are not', () => {
    expect([isDigitalTicket('rail', D20), isDigitalTicket('air', D20), isDigitalTicket('rail', ''), isDigitalTicket('air', null), isDigitalTicket('road', D20), isDigitalTicket('82', D20)]).toEqual([true, true, false, false, false, false]);
    expect(tickRefusal(row({ kind: 'rail', digital_no: D20 }), 1, 900, P)).toBe('');
    expect(tickRefusal(row({ kind: 'air', digital_no: D20 }), 1, 900, P)).toBe('');
    expect(tickRefusal(row({ kind: 'rail', digital_no: '' }), 1, 900, P)).toBe(NOT_TICKABLE_MESSAGE);
    expect(tickRefusal(row({ kind: 'air', digital_no: '' }), 1, 900, P)).toBe(NOT_TICKABLE_MESSAGE);
    expect(tickRefusal(row({ kind: 'road' }), 1, 900, P)).toBe(NOT_TICKABLE_MESSAGE);
    // The stated tax bounds the effective tax, as a 专票's does.
    expect(tickRefusal(row({ kind: 'rail', digital_no: D20 }), 1, 901, P)).toBe('有效税额须大于0且不超过发票税额（9.00元）');
  });

  it('tolls (14 and 数电) and customs notices are tickable; 普票 are not; a customs notice needs no 查验, the others do', () => {
    expect(['01', '08', '81', '85', '14', 'dtoll', 'customs'].map((k) => isTickableKind(k, ''))).toEqual([true, true, true, true, true, true, true]);
    expect(['04', '10', '82', '86', 'withholding', 'road'].map((k) => isTickableKind(k, D20))).toEqual([false, false, false, false, false, false]);
    expect(tickRefusal(row({ kind: '14' }), 1, 900, P)).toBe('');
    expect(tickRefusal(row({ kind: 'dtoll' }), 1, 900, P)).toBe('');
    expect(tickRefusal(row({ kind: 'customs', verify_state: 0 }), 1, 900, P)).toBe('');
    expect(tickRefusal(row({ kind: 'dtoll', verify_state: 0 }), 1, 900, P)).toBe('该发票未查验一致，不能勾选');
    expect(tickRefusal(row({ kind: '82' }), 1, 900, P)).toBe(NOT_TICKABLE_MESSAGE);
    expect(NOT_TICKABLE_MESSAGE).toBe('该发票种类不能勾选（仅增值税专用发票、数电专票、通行费发票、数电铁路电子客票和航空行程单、海关缴款书）');
  });

  it("the customs call's own checks: 抵扣 or 不抵扣 only, a notice number as printed, a 填发日期", () => {
    const item = { noticeNo: '530120261000123456-L01', fillDate: '2026-11-02', effectiveTax: 130_000 };
    expect(() => checkCustomsTickRequest({ period: '202611', usage: 1, items: [item] }, 'm')).not.toThrow();
    expect(() => checkCustomsTickRequest({ period: '202611', usage: 2, items: [item] }, 'm')).toThrow('海关缴款书只能勾选为抵扣或不抵扣');
    expect(() => checkCustomsTickRequest({ period: '202611', usage: 1, items: [{ ...item, noticeNo: '5301 2026' }] }, 'm')).toThrow('缴款书号码不正确：5301 2026');
    expect(() => checkCustomsTickRequest({ period: '202611', usage: 1, items: [item, item] }, 'm')).toThrow('同一批次中缴款书重复：530120261000123456-L01');
    expect(() => checkCustomsTickRequest({ period: '202611', usage: 1, items: [] }, 'm')).toThrow('请至少选择一张海关缴款书');
  });
});
