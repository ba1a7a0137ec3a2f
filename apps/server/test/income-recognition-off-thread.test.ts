/**
 * Issue 30: recognition off the request thread and bounded. An image's pixel count is read from its
 * header and a file of more than MAX_PIXELS is answered with a Chinese warning before anything is
 * decoded; every file is recognised in a worker thread, so a heavy image does not hold the requests of
 * others: while one is being recognised, another user's userinfo is answered first (ordering, no timing).
 */
import zlib from 'node:zlib';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PIXELS, statedPixels } from '../src/modules/income/intake/recognition/image-decode.js';
import { Messages, recognise } from '../src/modules/income/intake/recognition/recognise.js';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let t13: string;
let t1: string;
beforeAll(async () => {
  s = await startTestServer();
  [t13, t1] = await Promise.all([s.login('demo13'), s.login('demo1')]);
});
afterAll(async () => {
  await s?.close();
});

/** A PNG's signature and IHDR chunk only: what a header states, without the pixels. */
function pngHeader(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunk = Buffer.concat([Buffer.from([0, 0, 0, 13]), Buffer.from('IHDR'), ihdr]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(chunk.subarray(4)) >>> 0);
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk, crc]));
}

describe('the pixel limit', () => {
  it('reads the stated size of a PNG and of a JPEG without decoding', () => {
    expect(statedPixels(pngHeader(3000, 2000), 'png')).toBe(6_000_000);
    const img = jpeg.encode({ data: Buffer.alloc(40 * 30 * 4, 200), width: 40, height: 30 }, 80).data;
    expect(statedPixels(new Uint8Array(img), 'jpeg')).toBe(1200);
  });

  it(`refuses an image of more than ${MAX_PIXELS} pixels with a Chinese warning, before decoding it`, async () => {
    expect(Messages.imageTooManyPixels).toBe('图片像素过多（超过2500万像素），未识别，请降低分辨率后再上传或上传原始发票文件');
    // 8000 × 5000 stated in the header, no pixels at all: refused for its size, not as broken.
    const r = await recognise({ name: 'big.png', bytes: pngHeader(8000, 5000) });
    expect(r.warnings).toContain(Messages.imageTooManyPixels);
    expect(r.warnings).not.toContain(Messages.imageBroken);
    // At the limit it is decoded (and found broken here, having no pixels).
    expect((await recognise({ name: 'edge.png', bytes: pngHeader(5000, 5000) })).warnings).toContain(Messages.imageBroken);
  });
});

describe('recognition off the request thread', () => {
  it('answers another user while a heavy image is recognised, and the upload route gives the same answer', async () => {
    // 4000 × 4000 (16 megapixels, under the limit): seconds of decoding and QR scanning.
    const png = new PNG({ width: 4000, height: 4000 });
    for (let p = 0; p < 4000 * 4000; p++) {
      const x = p % 4000;
      const y = (p - x) / 4000;
      png.data.set([(x + y) & 255, (x >> 4) & 255, (y >> 4) & 255, 255], p * 4);
    }
    const content = PNG.sync.write(png).toString('base64');
    const order: string[] = [];
    const heavy = s.call('/api/income/pool/upload-recognise', { fileName: 'photo.png', content }, t13).then((a) => (order.push('recognition'), a));
    // Let the upload's body be parsed and its recognition started before the other request comes.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const light = s.call('/api/account/userinfo', {}, t1).then((a) => (order.push('userinfo'), a));
    const [a, u] = await Promise.all([heavy, light]);
    expect(u.code, u.message).toBe(20000);
    expect(a.code, a.message).toBe(20000);
    expect(order).toEqual(['userinfo', 'recognition']);
    expect((a.r as { warnings: string[] }).warnings).toContain(Messages.noQr);
  }, 120_000);
});
