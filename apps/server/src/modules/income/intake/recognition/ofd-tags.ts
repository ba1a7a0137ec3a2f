/**
 * The invoice fields an OFD maps in its custom tags (GB/T 33190 §23 自定义标引): OFD.xml's DocRoot
 * names Document.xml, whose CustomTags names a CustomTags.xml listing tag files (CustomTag/FileLoc,
 * e.g. Tags/CustomTag.xml or Tag_Invoice.xml). In e-invoice OFDs a tag file maps the invoice's data
 * elements to the page objects that print them:
 *   <InvoiceNo><ofd:ObjectRef PageRef="61">6922</ofd:ObjectRef></InvoiceNo>
 * and the TextObject with ID 6922 on the page with ID 61 (or on its template page) holds the value in
 * its TextCode; a value printed in two objects (the '¥' and the figures) has two ObjectRefs, read in
 * order. An ObjectData child holds a value inline. The prefix varies among producers (ofd:, fp:, none),
 * so element names are compared without it; amounts of lines (Amount, TaxAmount in GoodsInfo) are not
 * totals and are not read. Samples: ofdrw's converter test resources (docs/income-recognition.md).
 */
import { blueNumberInRemark } from '@zhyy/shared';
import type { FieldValues } from './types.js';
import { day, digits, money, plain, taxNo } from './values.js';
import { child, descendants, type XmlNode } from './xml-tree.js';

/** A part of the package by its path from the root: its XML, null when absent; throws when it does not parse. */
export type OpenXml = (path: string) => Promise<XmlNode | null>;

const TAGS: Record<string, [keyof FieldValues, (v: string) => string | null]> = {
  InvoiceCode: ['invoiceCode', (v) => digits(v, 10, 12)],
  InvoiceNo: ['invoiceNo', (v) => digits(v, 8, 20)],
  IssueDate: ['issueDate', day],
  InvoiceCheckCode: ['checkCode', (v) => digits(v, 20)],
  BuyerName: ['buyerName', plain],
  BuyerTaxID: ['buyerTaxNo', taxNo],
  SellerName: ['sellerName', plain],
  SellerTaxID: ['sellerTaxNo', taxNo],
  TaxExclusiveTotalAmount: ['amount', money],
  TaxTotalAmount: ['tax', money],
  TaxInclusiveTotalAmount: ['total', money],
  // 备注 (one ObjectRef a printed line): a red 数电 invoice names there the blue one it reverses.
  Note: ['blueInvoiceNo', (v) => blueNumberInRemark(v.replace(/\s+/g, '')) || null],
};

const MAX_TAG_FILES = 8;
const MAX_PAGES_READ = 16;

/** 'Doc_0/Tags/' + '../Pages/Page_0/Content.xml' -> 'Doc_0/Pages/Page_0/Content.xml'; a leading '/' starts at the root. */
export function resolvePath(base: string, loc: string): string {
  const parts = loc.startsWith('/') ? [] : base.split('/').filter(Boolean);
  for (const p of loc.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') parts.pop();
    else parts.push(p);
  }
  return parts.join('/');
}

const folderOf = (path: string) => path.slice(0, path.lastIndexOf('/') + 1);

interface Page {
  loc: string;
  templates: string[];
}

/**
 * The fields the tag files map, and a warning for each tag file (or CustomTags.xml) that does not
 * parse. Only the pages the tags refer to are opened.
 */
export async function readOfdTags(ofdRoot: XmlNode, open: OpenXml, warn: (part: string) => void): Promise<FieldValues> {
  const fields: FieldValues = {};
  const docLoc = child(ofdRoot, 'DocBody/DocRoot')?.text.trim();
  if (!docLoc) return fields;
  const docPath = resolvePath('', docLoc);
  const parsed = async (path: string) => {
    try {
      return await open(path);
    } catch {
      warn(path);
      return null;
    }
  };
  const doc = await parsed(docPath);
  const tagsLoc = doc && child(doc, 'CustomTags')?.text.trim();
  if (!doc || !tagsLoc) return fields;
  const docDir = folderOf(docPath);

  // Pages and template pages by ID; a page names its templates in <Template TemplateID>.
  const templates = new Map<string, string>();
  for (const t of descendants(child(doc, 'CommonData') ?? doc, 'TemplatePage')) {
    if (t.attrs.ID && t.attrs.BaseLoc) templates.set(t.attrs.ID, resolvePath(docDir, t.attrs.BaseLoc));
  }
  const pages = new Map<string, Page>();
  for (const p of descendants(child(doc, 'Pages') ?? doc, 'Page')) {
    if (p.attrs.ID && p.attrs.BaseLoc) pages.set(p.attrs.ID, { loc: resolvePath(docDir, p.attrs.BaseLoc), templates: [] });
  }

  // The text of each TextObject of a content part, by ID (the first one where producers repeat an ID).
  const texts = new Map<string, Promise<Map<string, string> | null>>();
  const textsOf = (loc: string) => {
    let held = texts.get(loc);
    if (!held && texts.size < MAX_PAGES_READ) {
      held = parsed(loc).then((root) => {
        if (!root) return null;
        const byId = new Map<string, string>();
        for (const o of descendants(root, 'TextObject')) {
          const id = o.attrs.ID;
          if (id && !byId.has(id)) byId.set(id, descendants(o, 'TextCode').map((c) => c.text).join(''));
        }
        for (const t of descendants(root, 'Template')) {
          const page = [...pages.values()].find((p) => p.loc === loc);
          const tpl = templates.get(t.attrs.TemplateID ?? '');
          if (page && tpl) page.templates.push(tpl);
        }
        return byId;
      });
      texts.set(loc, held);
    }
    return held ?? Promise.resolve(null);
  };
  /** The page's own objects first, then its templates'; with no known page, every page read so far. */
  const textOf = async (pageRef: string | undefined, id: string): Promise<string | undefined> => {
    const page = pageRef ? pages.get(pageRef) : undefined;
    if (page) {
      const own = await textsOf(page.loc);
      if (own?.has(id)) return own.get(id);
      for (const tpl of page.templates) {
        const t = (await textsOf(tpl))?.get(id);
        if (t !== undefined) return t;
      }
      return undefined;
    }
    for (const p of pages.values()) {
      const t = (await textsOf(p.loc))?.get(id);
      if (t !== undefined) return t;
    }
    return undefined;
  };

  const tagsPath = resolvePath(docDir, tagsLoc);
  const list = await parsed(tagsPath);
  const files = list ? descendants(list, 'FileLoc').slice(0, MAX_TAG_FILES) : [];
  for (const f of files) {
    const tagFile = await parsed(resolvePath(folderOf(tagsPath), f.text.trim()));
    if (!tagFile) continue;
    for (const [tag, [field, parse]] of Object.entries(TAGS)) {
      if (fields[field] !== undefined) continue;
      for (const el of descendants(tagFile, tag)) {
        let raw = '';
        for (const part of el.children) {
          if (part.name === 'ObjectRef') raw += (await textOf(part.attrs.PageRef, part.text.trim())) ?? '';
          else if (part.name === 'ObjectData') raw += part.text;
        }
        const value = parse(raw);
        if (value) {
          fields[field] = value;
          break;
        }
      }
    }
  }
  return fields;
}
