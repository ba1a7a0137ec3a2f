/**
 * What recognition of one uploaded invoice file answers (issue 13): the file's format, the invoice
 * fields found with where each came from, the lines of a structured (XML) invoice, and warnings in
 * Chinese for the person who checks and corrects the fields before saving.
 */

/** The format read from the file's content (never from its name); 'unknown' when none fits. */
export type FileKind = 'xml' | 'pdf' | 'ofd' | 'image' | 'unknown';

/**
 * Where a value came from: an XML document (数电 XML, or the XML inside an OFD, or OFD.xml's CustomDatas), a PDF's
 * text, the invoice's QR code, an OFD page's text that the OFD's custom tags (CustomTag.xml) name as the field.
 */
export type FieldSource = 'xml' | 'pdf-text' | 'qr' | 'ofd-tag';

export type FieldName =
  | 'kindCode'
  | 'invoiceCode'
  | 'invoiceNo'
  | 'issueDate'
  | 'buyerName'
  | 'buyerTaxNo'
  | 'sellerName'
  | 'sellerTaxNo'
  | 'amount'
  | 'tax'
  | 'total'
  | 'checkCode'
  | 'blueInvoiceNo';

/** The fields in the order a form shows them. */
export const FIELD_NAMES: readonly FieldName[] = ['kindCode', 'invoiceCode', 'invoiceNo', 'issueDate', 'buyerName', 'buyerTaxNo', 'sellerName', 'sellerTaxNo', 'amount', 'tax', 'total', 'checkCode', 'blueInvoiceNo'];

export const FIELD_LABELS: Record<FieldName, string> = {
  kindCode: '发票种类',
  invoiceCode: '发票代码',
  invoiceNo: '发票号码',
  issueDate: '开票日期',
  buyerName: '购买方名称',
  buyerTaxNo: '购买方税号',
  sellerName: '销售方名称',
  sellerTaxNo: '销售方税号',
  amount: '金额（不含税）',
  tax: '税额',
  total: '价税合计',
  checkCode: '校验码',
  blueInvoiceNo: '对应蓝字发票号码',
};

export const SOURCE_LABELS: Record<FieldSource, string> = { xml: 'XML', 'pdf-text': 'PDF文字', qr: '二维码', 'ofd-tag': 'OFD标签' };

/**
 * Values as text: kindCode two digits (DOMAIN.md: 01 专票, 04 普票, 08 电子专票, 10 电子普票, 14 通行费,
 * 81/82 数电专/普, 85/86 数电纸质, 'rail' 铁路电子客票, 'air' 航空运输电子客票行程单: the pool's kinds,
 * kinds.ts); issueDate 'YYYY-MM-DD'; money in 元 with two decimals ('1130.00',
 * '-' on red invoices); tax numbers upper case.
 */
export type FieldValues = Partial<Record<FieldName, string>>;

export interface RecognisedField {
  value: string;
  source: FieldSource;
}

/** One line (项目) of a structured invoice; money in 元 with two decimals, rate as a decimal ('0.13'). */
export interface RecognisedLine {
  name: string;
  spec: string;
  unit: string;
  quantity: string;
  unitPrice: string;
  amount: string;
  taxRate: string;
  tax: string;
}

export interface Recognition {
  kind: FileKind;
  fields: Partial<Record<FieldName, RecognisedField>>;
  lines?: RecognisedLine[];
  warnings: string[];
}

/** What one reader found in one place of the file. */
export interface SourceReading {
  source: FieldSource;
  fields: FieldValues;
}

/** Decoded pixels, 4 bytes (RGBA) a pixel. */
export interface RgbaImage {
  data: Uint8ClampedArray;
  width: number;
  height: number;
}

export const KIND_LABELS: Record<string, string> = {
  '01': '增值税专用发票',
  '03': '机动车销售统一发票',
  '04': '增值税普通发票',
  '08': '增值税电子专用发票',
  '10': '增值税电子普通发票',
  '11': '增值税普通发票（卷式）',
  '14': '增值税电子普通发票（通行费）',
  dtoll: '数电发票（通行费）',
  '81': '数电发票（增值税专用发票）',
  '82': '数电发票（普通发票）',
  '85': '数电纸质发票（增值税专用发票）',
  '86': '数电纸质发票（普通发票）',
  rail: '电子发票（铁路电子客票）',
  air: '电子发票（航空运输电子客票行程单）',
};
