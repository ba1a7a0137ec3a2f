/**
 * A small XML tree built with saxes (already the platform's XML parser): element names without their
 * namespace prefix ('ofd:CustomData' -> 'CustomData'), attributes, children and text. No DTD, no
 * entities beyond XML's own, bounded in size and depth; anything else is a parse error.
 */
import { SaxesParser } from 'saxes';

export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
}

const MAX_ELEMENTS = 200_000;
const MAX_DEPTH = 64;

const local = (name: string) => name.slice(name.indexOf(':') + 1);

/** The text of XML bytes: a BOM or the declared encoding (UTF-8, GBK, GB2312, GB18030), else UTF-8. */
export function decodeXml(bytes: Uint8Array): string {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return new TextDecoder('utf-8').decode(bytes.subarray(3));
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /encoding\s*=\s*["']([A-Za-z0-9_-]+)["']/.exec(head)?.[1]?.toLowerCase();
  const label = declared && ['gbk', 'gb2312', 'gb18030'].includes(declared) ? 'gb18030' : 'utf-8';
  return new TextDecoder(label).decode(bytes);
}

/** The root element, or throws when the text is not well-formed XML (or too large or deep). */
export function parseXml(text: string): XmlNode {
  const parser = new SaxesParser({ position: false });
  const stack: XmlNode[] = [];
  let root: XmlNode | null = null;
  let count = 0;
  let failure: Error | null = null;
  parser.on('error', (e) => {
    failure ??= e;
  });
  parser.on('doctype', () => {
    failure ??= new Error('DOCTYPE not allowed');
  });
  parser.on('opentag', (tag) => {
    if (++count > MAX_ELEMENTS || stack.length >= MAX_DEPTH) {
      failure ??= new Error('XML too large');
      return;
    }
    const attrs: Record<string, string> = {};
    for (const [k, v] of Object.entries(tag.attributes)) attrs[local(k)] = typeof v === 'string' ? v : v.value;
    const node: XmlNode = { name: local(tag.name), attrs, children: [], text: '' };
    const parent = stack.at(-1);
    if (parent) parent.children.push(node);
    else root ??= node;
    stack.push(node);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const addText = (t: string) => {
    const top = stack.at(-1);
    if (top) top.text += t;
  };
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.write(text).close();
  if (failure) throw failure;
  if (!root) throw new Error('no root element');
  return root;
}

/** The first descendant along a path of child names ('EInvoiceData/SellerInformation/SellerName'). */
export function child(node: XmlNode | undefined, path: string): XmlNode | undefined {
  let at = node;
  for (const part of path.split('/')) at = at?.children.find((c) => c.name === part);
  return at;
}

/** The trimmed text at a path, or undefined. */
export function textAt(node: XmlNode | undefined, path: string): string | undefined {
  const t = child(node, path)?.text.trim();
  return t === '' ? undefined : t;
}

/** Every descendant (depth first, document order) with the name. */
export function descendants(node: XmlNode, name: string, out: XmlNode[] = []): XmlNode[] {
  for (const c of node.children) {
    if (c.name === name) out.push(c);
    descendants(c, name, out);
  }
  return out;
}
