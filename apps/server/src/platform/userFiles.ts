/**
 * Files users upload and download (invoice files, workflow attachments), checked and served in one
 * place so no route can serve a page on the app's origin:
 * - on upload, the format is read from the content (magic bytes); markup is parsed as XML by a real
 *   parser and refused when it is a web page (root html, XHTML namespace) or carries scripts (script
 *   elements, processing instructions such as xml-stylesheet, a DOCTYPE, on* attributes, javascript: URLs);
 * - on download, every file goes out with nosniff and a sandboxing CSP, and as an attachment (RFC 5987
 *   file name) unless its content really is a PDF or an image.
 */
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { createRequire } from 'node:module';
import type { SaxesParser as SaxesParserType } from 'saxes';
import { refuse } from './envelope.js';

export type FileFormat = 'pdf' | 'ofd' | 'xml' | 'jpg' | 'png' | 'gif' | 'webp';

/** The file's format from its content (magic bytes), whatever its name says; markup counts as xml. */
export function sniffFormat(b: Buffer): FileFormat | null {
  if (b.subarray(0, 5).toString('latin1') === '%PDF-') return 'pdf';
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpg';
  if (b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (b.subarray(0, 4).toString('latin1') === 'GIF8') return 'gif';
  if (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'webp';
  // OFD (GB/T 33190) is a zip whose entries start with OFD.xml.
  if (b.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])) && b.subarray(0, 2048).includes('OFD.xml')) return 'ofd';
  if (looksLikeMarkup(b)) return 'xml';
  return null;
}

function looksLikeMarkup(b: Buffer): boolean {
  const head = b.subarray(0, 1024).toString('utf8').replace(/^\uFEFF/, '').trimStart();
  return head.startsWith('<');
}

// saxes loads with the first XML upload, not at start (issue 30); it is CommonJS, so `require` keeps checkXml synchronous.
const require = createRequire(import.meta.url);
let saxesModule: { SaxesParser: typeof SaxesParserType } | undefined;
const saxes = () => (saxesModule ??= require('saxes') as { SaxesParser: typeof SaxesParserType });

const XHTML_NS = 'http://www.w3.org/1999/xhtml';
/** After dropping what browsers ignore in a URL (whitespace, control characters). */
const SCRIPT_URL = /^(javascript|vbscript|data:text\/html)/i;

const NOT_XML = '文件不是有效的XML，请检查后重新上传';
const PAGE = '不能上传网页文件（HTML/XHTML）';
const SCRIPT = '文件包含脚本或样式表指令，不能上传';

/**
 * Parses markup as XML and refuses what a browser could run: a web page (root html, the XHTML
 * namespace), script elements, processing instructions (xml-stylesheet…), a DOCTYPE, event-handler
 * attributes and script URLs. Anything that is not well-formed XML is refused too.
 */
export function checkXml(content: Buffer): void {
  const { SaxesParser } = saxes();
  const text = content.toString('utf8').replace(/^\uFEFF/, '');
  let problem: string | null = null;
  let root = true;
  const parser = new SaxesParser({ xmlns: true, position: false });
  parser.on('error', () => {
    problem ??= NOT_XML;
  });
  parser.on('doctype', () => {
    problem ??= SCRIPT;
  });
  parser.on('processinginstruction', () => {
    problem ??= SCRIPT;
  });
  parser.on('opentag', (tag) => {
    const local = tag.local.toLowerCase();
    if ((root && local === 'html') || tag.uri === XHTML_NS) problem ??= PAGE;
    root = false;
    if (local === 'script') problem ??= SCRIPT;
    for (const a of Object.values(tag.attributes)) {
      if (a.uri === XHTML_NS) problem ??= PAGE;
      if (a.local.toLowerCase().startsWith('on')) problem ??= SCRIPT;
      if (SCRIPT_URL.test(a.value.replace(/[\s\u0000-\u001f]+/g, ''))) problem ??= SCRIPT;
    }
  });
  try {
    parser.write(text).close();
  } catch {
    problem ??= NOT_XML;
  }
  if (root) problem ??= NOT_XML;
  if (problem) throw refuse(problem);
}

/** Extensions a browser would open as a page or run, whatever the content. */
const ACTIVE_EXTENSIONS = new Set(['html', 'htm', 'xhtml', 'xht', 'shtml', 'svg', 'svgz', 'js', 'mjs', 'hta', 'mht', 'mhtml']);

export const extensionOf = (name: string): string => {
  const e = name.toLowerCase().split('.').pop() ?? '';
  return e === 'jpeg' ? 'jpg' : e;
};

/**
 * The upload check every upload route uses. Returns the format read from the content (null: not one
 * the platform knows, e.g. an office document). Markup must be safe XML; page and script file names are refused.
 */
export function checkUpload(content: Buffer, fileName: string): FileFormat | null {
  if (ACTIVE_EXTENSIONS.has(extensionOf(fileName))) throw refuse(PAGE);
  const format = sniffFormat(content);
  if (format === 'xml') checkXml(content);
  return format;
}

const INLINE_TYPES: Partial<Record<FileFormat, string>> = { pdf: 'application/pdf', jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp' };

/** Content-Disposition with an ASCII fallback and the RFC 5987 UTF-8 name. */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\;]/g, '_') || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** The CSP of a served file: nothing runs; an image or a PDF may still display. */
export const FILE_CSP = "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'";
/** Browsers' PDF viewers are plugins, which a sandbox blocks; a PDF still gets no scripts or connections. */
export const PDF_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; object-src 'self'";

/** The serving headers of a user file of this sniffed format (null: not shown inline) and stored type. */
function fileHeaders(reply: FastifyReply, name: string, mime: string, format: FileFormat | null, cacheControl = 'private, no-store'): FastifyReply {
  const inlineType = format ? INLINE_TYPES[format] : undefined;
  const stored = !mime || /html|svg|javascript|ecmascript/i.test(mime) ? 'application/octet-stream' : mime;
  return reply
    .header('content-type', inlineType ?? stored)
    .header('content-disposition', contentDisposition(inlineType ? 'inline' : 'attachment', name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', format === 'pdf' ? PDF_CSP : FILE_CSP)
    .header('cache-control', cacheControl);
}

/**
 * Sends a user file with the serving headers: shown inline only when its content is a PDF or an
 * image (then with that type), otherwise as an attachment of its stored type.
 */
export function sendUserFile(reply: FastifyReply, file: { name: string; mime: string; content: Buffer }, opts: { cacheControl?: string } = {}): FastifyReply {
  return fileHeaders(reply, file.name, file.mime, sniffFormat(file.content), opts.cacheControl).send(file.content);
}

/**
 * sendUserFile for a stream (a file from platform/storage, never read whole): the same headers, with the
 * format taken from the stored type, which the upload read from the content (tender attachments accept
 * PDF, JPEG and PNG only, sniffed on their way in).
 */
export function sendUserStream(reply: FastifyReply, file: { name: string; mime: string; size?: number; stream: Readable }, opts: { cacheControl?: string } = {}): FastifyReply {
  const format = (Object.entries(INLINE_TYPES).find(([, t]) => t === file.mime)?.[0] ?? null) as FileFormat | null;
  if (file.size !== undefined) reply.header('content-length', file.size);
  return fileHeaders(reply, file.name, file.mime, format, opts.cacheControl).send(file.stream);
}
