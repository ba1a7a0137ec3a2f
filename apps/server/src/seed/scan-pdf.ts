/**
 * One-page "scanned" PDFs for the demo (seed/tender-scans.ts), written by hand so that a thousand of
 * them take milliseconds: the font (Noto Sans SC, the invoice PDF's, subset with HarfBuzz to the
 * characters of every page of the demo, integrations/tax/pdf/font.ts) and its descriptor, widths and
 * ToUnicode map are built and compressed once; a page is then its own small content stream plus those
 * shared objects and a cross-reference table. pdf-lib (and pdf.js) read the result; the text can be
 * selected and searched (Identity-H glyph ids with a ToUnicode map).
 */
import { deflateSync } from 'node:zlib';
import { subsetFor } from '../integrations/tax/pdf/font.js';

export type Rgb = readonly [number, number, number];
export interface TextLine { text: string; x: number | 'center'; y: number; size: number; color?: Rgb }

const A4 = { w: 595.28, h: 841.89 };
const num = (n: number) => (Math.round(n * 100) / 100).toString();
const hex4 = (n: number) => n.toString(16).padStart(4, '0').toUpperCase();

function utf16Hex(ch: string): string {
  let out = '';
  for (let i = 0; i < ch.length; i++) out += hex4(ch.charCodeAt(i));
  return out;
}

function streamObject(dict: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
}

export class ScanPdf {
  private constructor(
    private readonly glyphs: Map<string, { id: number; width: number }>,
    /** The objects 5–9 (font, descendant, descriptor, font file, ToUnicode), the same in every page. */
    private readonly shared: Buffer[],
  ) {}

  /** A writer for pages drawing only characters of `chars`. */
  static async create(chars: string): Promise<ScanPdf> {
    const ttf = await subsetFor(chars);
    // fontkit loads when the demo's scans are drawn, not with every start (main.ts imports the seed; issue 30).
    const { default: fontkit } = await import('@pdf-lib/fontkit');
    const font = fontkit.create(ttf) as unknown as {
      unitsPerEm: number; ascent: number; descent: number; capHeight: number; bbox: { minX: number; minY: number; maxX: number; maxY: number };
      glyphForCodePoint(cp: number): { id: number; advanceWidth: number };
    };
    const scale = 1000 / font.unitsPerEm;
    const glyphs = new Map<string, { id: number; width: number }>();
    for (const ch of new Set([...chars, ' '])) {
      const g = font.glyphForCodePoint(ch.codePointAt(0)!);
      glyphs.set(ch, { id: g.id, width: Math.round(g.advanceWidth * scale) });
    }
    const byId = [...new Map([...glyphs].map(([ch, g]) => [g.id, { ch, w: g.width }])).entries()].sort((a, b) => a[0] - b[0]);
    const name = '/AAAAAA+NotoSansSC-Regular';
    const widths = byId.map(([id, g]) => `${id} [${g.w}]`).join(' ');
    const bfchar: string[] = [];
    for (let i = 0; i < byId.length; i += 100) {
      const part = byId.slice(i, i + 100);
      bfchar.push(`${part.length} beginbfchar\n${part.map(([id, g]) => `<${hex4(id)}> <${utf16Hex(g.ch)}>`).join('\n')}\nendbfchar`);
    }
    const cmap = [
      '/CIDInit /ProcSet findresource begin', '12 dict begin', 'begincmap',
      '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def', '/CMapName /Adobe-Identity-UCS def', '/CMapType 2 def',
      '1 begincodespacerange', '<0000> <FFFF>', 'endcodespacerange', ...bfchar, 'endcmap', 'CMapName currentdict /CMap defineresource pop', 'end', 'end',
    ].join('\n');
    const b = font.bbox;
    const shared = [
      Buffer.from(`<< /Type /Font /Subtype /Type0 /BaseFont ${name} /Encoding /Identity-H /DescendantFonts [6 0 R] /ToUnicode 9 0 R >>`, 'latin1'),
      Buffer.from(`<< /Type /Font /Subtype /CIDFontType2 /BaseFont ${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /DW 1000 /W [${widths}] /CIDToGIDMap /Identity >>`, 'latin1'),
      Buffer.from(
        `<< /Type /FontDescriptor /FontName ${name} /Flags 4 /FontBBox [${[b.minX, b.minY, b.maxX, b.maxY].map((v) => Math.round(v * scale)).join(' ')}] /ItalicAngle 0 /Ascent ${Math.round(font.ascent * scale)} /Descent ${Math.round(font.descent * scale)} /CapHeight ${Math.round((font.capHeight || font.ascent) * scale)} /StemV 80 /FontFile2 8 0 R >>`,
        'latin1',
      ),
      streamObject(`/Filter /FlateDecode /Length1 ${ttf.length}`, deflateSync(ttf)),
      streamObject('/Filter /FlateDecode', deflateSync(Buffer.from(cmap, 'latin1'))),
    ];
    return new ScanPdf(glyphs, shared);
  }

  /** The width of `text` at `size` points. */
  width(text: string, size: number): number {
    let w = 0;
    for (const ch of text) w += this.glyph(ch).width;
    return (w * size) / 1000;
  }

  private glyph(ch: string): { id: number; width: number } {
    const g = this.glyphs.get(ch);
    if (!g) throw new Error(`scan font lacks the character ${ch}`);
    return g;
  }

  /** Text as content-stream operators (centred on the page when `x` is 'center'). */
  text(lines: readonly TextLine[]): string {
    return lines
      .map((l) => {
        const x = l.x === 'center' ? (A4.w - this.width(l.text, l.size)) / 2 : l.x;
        const [r, g, b] = l.color ?? [0.1, 0.1, 0.1];
        const ids = [...l.text].map((ch) => hex4(this.glyph(ch).id)).join('');
        return `BT ${num(r)} ${num(g)} ${num(b)} rg /F1 ${num(l.size)} Tf 1 0 0 1 ${num(x)} ${num(l.y)} Tm <${ids}> Tj ET`;
      })
      .join('\n');
  }

  /** One A4 page: `content` is its content stream (text(), shapes); returns the whole PDF. */
  page(content: string): Buffer {
    const objects = [
      Buffer.from('<< /Type /Catalog /Pages 2 0 R >>', 'latin1'),
      Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>', 'latin1'),
      Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${A4.w} ${A4.h}] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>`, 'latin1'),
      streamObject('', Buffer.from(content, 'latin1')),
      ...this.shared,
    ];
    const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
    let at = parts[0]!.length;
    const offsets: number[] = [];
    objects.forEach((o, i) => {
      offsets.push(at);
      const head = Buffer.from(`${i + 1} 0 obj\n`, 'latin1');
      const tail = Buffer.from('\nendobj\n', 'latin1');
      parts.push(head, o, tail);
      at += head.length + o.length + tail.length;
    });
    const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
    parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`, 'latin1'));
    return Buffer.concat(parts);
  }
}

/** A circle of radius r around (x, y) as Bézier curves, stroked (a seal). */
export function circle(x: number, y: number, r: number): string {
  const k = 0.5523 * r;
  return [
    `${num(x + r)} ${num(y)} m`,
    `${num(x + r)} ${num(y + k)} ${num(x + k)} ${num(y + r)} ${num(x)} ${num(y + r)} c`,
    `${num(x - k)} ${num(y + r)} ${num(x - r)} ${num(y + k)} ${num(x - r)} ${num(y)} c`,
    `${num(x - r)} ${num(y - k)} ${num(x - k)} ${num(y - r)} ${num(x)} ${num(y - r)} c`,
    `${num(x + k)} ${num(y - r)} ${num(x + r)} ${num(y - k)} ${num(x + r)} ${num(y)} c S`,
  ].join('\n');
}

export const PAGE = A4;
