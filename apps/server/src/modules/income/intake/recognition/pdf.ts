/**
 * A PDF's text layer and embedded images, with pdf.js (pdfjs-dist, the legacy build meant for Node;
 * no canvas, no network, no worker thread). Pages are not rendered: the QR code of an e-invoice is an
 * embedded image, so the images painted on the first pages are handed over as pixels instead. A QR
 * drawn as vector paths, or one only visible when the page is rendered, is not found this way.
 */
import { MAX_PIXELS, pdfImageToRgba, maskToRgba } from './image-decode.js';
import type { RgbaImage } from './types.js';

/** Text is read from at most this many pages, images from the first IMAGE_PAGES of them. */
const TEXT_PAGES = 20;
const IMAGE_PAGES = 2;
/** Images below this size cannot hold a QR code; above the limit they are left alone. */
const MIN_SIDE = 21;
const MAX_IMAGES = 12;

export interface PdfContent {
  pages: number;
  text: string;
  images: RgbaImage[];
}

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | null = null;
const load = () => (pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs'));

interface ObjStore {
  get(id: string, callback: (data: unknown) => void): void;
}
interface PageLike {
  objs: ObjStore;
  commonObjs: ObjStore;
}

function object(page: PageLike, id: string): Promise<unknown> {
  return new Promise((resolve) => (id.startsWith('g_') ? page.commonObjs : page.objs).get(id, resolve));
}

type Raw = { width: number; height: number; kind?: number; data?: Uint8Array | Uint8ClampedArray | string };

async function pageImages(pdf: PdfJs, page: Parameters<typeof object>[0] & { getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[][] }> }): Promise<RgbaImage[]> {
  const { OPS } = pdf;
  const ops = await page.getOperatorList();
  const out: RgbaImage[] = [];
  for (let i = 0; i < ops.fnArray.length && out.length < MAX_IMAGES; i++) {
    const fn = ops.fnArray[i];
    const arg = ops.argsArray[i]?.[0];
    let raw: Raw | null = null;
    let mask = false;
    if (fn === OPS.paintImageXObject || fn === OPS.paintImageXObjectRepeat) raw = typeof arg === 'string' ? ((await object(page, arg)) as Raw | null) : null;
    else if (fn === OPS.paintInlineImageXObject) raw = arg as Raw;
    else if (fn === OPS.paintImageMaskXObject) {
      raw = arg as Raw;
      mask = true;
    }
    if (!raw || raw.width < MIN_SIDE || raw.height < MIN_SIDE) continue;
    const data = typeof raw.data === 'string' ? ((await object(page, raw.data)) as Raw | null)?.data : raw.data;
    if (!data || typeof data === 'string') continue;
    const img = mask ? maskToRgba({ width: raw.width, height: raw.height, data }) : pdfImageToRgba({ ...raw, data });
    if (img) out.push(img);
  }
  return out;
}

/** The text (items joined by spaces, lines and pages by line breaks) and the images of a PDF; throws when it cannot be read. */
export async function readPdf(bytes: Uint8Array): Promise<PdfContent> {
  const pdf = await load();
  // pdf.js takes ownership of the buffer it is given: hand it a copy.
  const task = pdf.getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, disableFontFace: true, useSystemFonts: false, stopAtErrors: false, maxImageSize: MAX_PIXELS, verbosity: 0 });
  const doc = await task.promise;
  try {
    const texts: string[] = [];
    const images: RgbaImage[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, TEXT_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      texts.push(content.items.map((it) => ('str' in it ? it.str + (it.hasEOL ? '\n' : ' ') : '')).join(''));
      if (n <= IMAGE_PAGES) images.push(...(await pageImages(pdf, page as unknown as Parameters<typeof pageImages>[1])));
      page.cleanup();
    }
    return { pages: doc.numPages, text: texts.join('\n'), images };
  } finally {
    await task.destroy();
  }
}
