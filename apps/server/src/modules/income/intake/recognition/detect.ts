/** The format of an uploaded file from its first bytes (never from its name). */

export type ContentFormat = 'pdf' | 'zip' | 'png' | 'jpeg' | 'xml' | 'unknown';

const starts = (b: Uint8Array, sig: number[], at = 0) => sig.every((v, i) => b[at + i] === v);

export function imageFormat(b: Uint8Array): 'png' | 'jpeg' | null {
  if (starts(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  return null;
}

export function detectFormat(b: Uint8Array): ContentFormat {
  const image = imageFormat(b);
  if (image) return image;
  if (starts(b, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  const head = Buffer.from(b.subarray(0, 1024)).toString('latin1');
  if (/^<(\?xml|[A-Za-z_])/.test(head.replace(/^\xEF\xBB\xBF/, '').trimStart())) return 'xml';
  // '%PDF-' may follow a few bytes of junk: PDF readers accept it within the first kilobyte.
  if (head.includes('%PDF-')) return 'pdf';
  return 'unknown';
}
