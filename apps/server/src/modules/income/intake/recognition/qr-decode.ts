/**
 * QR decoding from pixels with jsQR (pure JavaScript; dark-on-light and light-on-dark). Transparent
 * pixels are laid on white paper first: jsQR reads colour only, and the transparent background of a
 * QR image often holds black.
 */
import jsQRModule from 'jsqr';
import type { RgbaImage } from './types.js';

// jsqr is CommonJS whose typings declare an ES default export: at run time the module is the function.
const jsQR = ((jsQRModule as unknown as { default?: typeof jsQRModule.default }).default ?? jsQRModule) as unknown as typeof jsQRModule.default;

function onWhite(img: RgbaImage): RgbaImage {
  const { data } = img;
  let opaque = true;
  for (let i = 3; i < data.length && opaque; i += 4) opaque = data[i] === 255;
  if (opaque) return img;
  const out = new Uint8ClampedArray(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3]! / 255;
    out[i] = data[i]! * a + 255 * (1 - a);
    out[i + 1] = data[i + 1]! * a + 255 * (1 - a);
    out[i + 2] = data[i + 2]! * a + 255 * (1 - a);
    out[i + 3] = 255;
  }
  return { data: out, width: img.width, height: img.height };
}

/** The text of the first QR code found in the image, or null. */
export function decodeQr(img: RgbaImage): string | null {
  if (img.width < 21 || img.height < 21) return null;
  const flat = onWhite(img);
  return jsQR(flat.data, flat.width, flat.height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
}
