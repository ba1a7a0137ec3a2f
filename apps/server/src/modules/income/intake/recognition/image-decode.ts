/**
 * Pixels of an uploaded image (PNG with pngjs, JPEG with jpeg-js, both pure JavaScript) and of an
 * image found in a PDF (pdf.js's decoded image: 1-bit grey, RGB or RGBA), all as RGBA.
 */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import type { RgbaImage } from './types.js';

/** Larger images are refused (a photo of an invoice is far below this). */
export const MAX_PIXELS = 40_000_000;

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
