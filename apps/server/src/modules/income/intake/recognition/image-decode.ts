/**
 * Pixels of an uploaded image (PNG with pngjs, JPEG with jpeg-js, both pure JavaScript) and of an
 * image found in a PDF (pdf.js's decoded image: 1-bit grey, RGB or RGBA), all as RGBA.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { RgbaImage } from './types.js';

/**
 * Larger images are refused before they are decoded (issue 30: 40 megapixels in a 131 KB PNG took 500 MB
 * and seconds of CPU). A 600-dpi scan of an A4 page is 35 megapixels, a 300-dpi one 8.7, a phone photo 12
 * to 24: 25 megapixels (100 MB of pixels) reads every invoice a clerk sends.
 */
export const MAX_PIXELS = 25_000_000;

/**
 * The pixel count an image's header states (PNG: IHDR; JPEG: its frame header, SOF0–SOF15 but DHT, JPG
 * and DAC), read without decoding; null when the header is not found.
 */
export function statedPixels(bytes: Uint8Array, format: 'png' | 'jpeg'): number | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') return bytes.length >= 24 ? view.getUint32(16) * view.getUint32(20) : null;
  for (let i = 2; i + 9 < bytes.length; ) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return view.getUint16(i + 5) * view.getUint16(i + 7);
    if (marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += 2;
      continue;
    }
    i += 2 + view.getUint16(i + 2);
  }
  return null;
}

export function decodePng(bytes: Uint8Array): RgbaImage {
  // The size is in the IHDR chunk at bytes 16..23: refuse before pngjs allocates the pixels.
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length < 24 || view.getUint32(16) * view.getUint32(20) > MAX_PIXELS) throw new Error('image too large or truncated');
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { data: new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.byteLength), width: png.width, height: png.height };
}

export function decodeJpeg(bytes: Uint8Array): RgbaImage {
  const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_PIXELS / 1_000_000, maxMemoryUsageInMB: 512 });
  return { data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.byteLength), width: img.width, height: img.height };
}

/** pdf.js ImageKind: 1 GRAYSCALE_1BPP (rows padded to bytes, 1 = white), 2 RGB_24BPP, 3 RGBA_32BPP. */
export function pdfImageToRgba(img: { width: number; height: number; kind?: number; data?: Uint8Array | Uint8ClampedArray }): RgbaImage | null {
  const { width, height, kind, data } = img;
  if (!data || width <= 0 || height <= 0 || width * height > MAX_PIXELS) return null;
  const out = new Uint8ClampedArray(width * height * 4);
  if (kind === 3) {
    if (data.length < width * height * 4) return null;
    out.set(data.subarray(0, width * height * 4));
    return { data: out, width, height };
  }
  if (kind === 2) {
    if (data.length < width * height * 3) return null;
    for (let i = 0, j = 0; i < width * height; i++, j += 3) out.set([data[j]!, data[j + 1]!, data[j + 2]!, 255], i * 4);
    return { data: out, width, height };
  }
  if (kind === 1) {
    const row = (width + 7) >> 3;
    if (data.length < row * height) return null;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const v = (data[y * row + (x >> 3)]! >> (7 - (x & 7))) & 1 ? 255 : 0;
        out.set([v, v, v, 255], (y * width + x) * 4);
      }
    }
    return { data: out, width, height };
  }
  return null;
}

/** A 1-bit image mask (stencil, 1 bit a pixel, rows padded to bytes) as black on white. */
export function maskToRgba(mask: { width: number; height: number; data: Uint8Array | Uint8ClampedArray }): RgbaImage | null {
  return pdfImageToRgba({ ...mask, kind: 1 });
}
