/**
 * One value a field from what the readers of one file found: the XML first (the invoice's own
 * data), then the QR code (exact, machine printed), then an OFD page's text its custom tags name
 * (printed, but tied to the field by the file itself), then the PDF's text (read by its labels). Where
 * two sources disagree the first one stays and a warning names both values (except the kind a PDF's
 * title suggests: 数电纸质 85/86 print the titles of 01/04, so the title only fills a gap); then the figures are
 * checked against each other (amount + tax = total, tax numbers per GB 32100).
 */
import { Decimal } from 'decimal.js';
import { taxNumberProblem } from '@zhyy/shared';
import { sameKind } from './kinds.js';
import { FIELD_LABELS, FIELD_NAMES, SOURCE_LABELS, type FieldSource, type Recognition, type SourceReading } from './types.js';

const PRIORITY: FieldSource[] = ['xml', 'qr', 'ofd-tag', 'pdf-text'];

/** Names compare without spaces and with full-width brackets as half-width ones. */
const comparable = (v: string) => v.replace(/\s/g, '').replace(/（/g, '(').replace(/）/g, ')');

export function mergeReadings(readings: SourceReading[]): { fields: Recognition['fields']; warnings: string[] } {
  const ordered = [...readings].sort((a, b) => PRIORITY.indexOf(a.source) - PRIORITY.indexOf(b.source));
  const fields: Recognition['fields'] = {};
  const warnings: string[] = [];
  for (const name of FIELD_NAMES) {
    for (const r of ordered) {
      const value = r.fields[name];
      if (value === undefined) continue;
      const held = fields[name];
      if (!held) fields[name] = { value, source: r.source };
      // The QR's 82 cannot tell a 数电 toll from a 普票: the toll read elsewhere is the more precise kind.
      else if (name === 'kindCode' && held.value === '82' && value === 'dtoll') fields[name] = { value, source: r.source };
      else if (comparable(held.value) !== comparable(value) && !(name === 'kindCode' && (r.source === 'pdf-text' || sameKind(held.value, value)))) {
        warnings.push(`${FIELD_LABELS[name]}：${SOURCE_LABELS[r.source]}为“${value}”，与${SOURCE_LABELS[held.source]}的“${held.value}”不一致，请核对`);
      }
    }
  }
  return { fields, warnings };
}

/** Whether the figures agree with each other; each problem as a Chinese sentence. */
export function checkFigures(fields: Recognition['fields']): string[] {
  const out: string[] = [];
  const { amount, tax, total } = fields;
  if (amount && tax && total && !new Decimal(amount.value).plus(tax.value).eq(total.value)) {
    out.push(`金额${amount.value}加税额${tax.value}不等于价税合计${total.value}，请核对`);
  }
  for (const [name, party] of [['buyerTaxNo', '购买方'], ['sellerTaxNo', '销售方']] as const) {
    const v = fields[name]?.value;
    const problem = v ? taxNumberProblem(v) : null;
    if (problem) out.push(`${party}${problem}`);
  }
  return out;
}
