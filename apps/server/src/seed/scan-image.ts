/**
 * Certificate scans for the demo (seed/tender-scans.ts): a few templates drawn once per process, a
 * photograph as JPEG (jpeg-js) and flatbed scans as PNG (pngjs) — cream paper (with grain in the photo), a printed frame, grey bars
 * for the printed lines, a photo box and a red seal — and reused for many holders, as a demo may.
 */
import { Rng } from './rng.js';

type Rgb = readonly [number, number, number];
const W = 420;
const H = 297;

/** The pixels of one scan (RGBA); `noise`: a photograph's grain (JPEG), else a flatbed scan (PNG). */
function draw(seed: number, frame: Rgb, photo: boolean, noise: boolean): Buffer {
  const rng = new Rng(seed);
  const px = Buffer.alloc(W * H * 4);
  const set = (x: number, y: number, [r, g, b]: Rgb) => {
    if (x < 0 || y < 0 || x >= W || y >= H) return;
    const i = (y * W + x) * 4;
    px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = 255;
  };
  const rect = (x0: number, y0: number, w: number, h: number, c: Rgb) => {
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) set(x, y, c);
  };
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const n = noise ? rng.int(-6, 6) - Math.round((x / W) * 10) : 0;
    set(x, y, [246 + Math.min(9, n), 240 + n, 226 + n]);
  }
  for (const inset of [14, 22]) {
    rect(inset, inset, W - 2 * inset, 3, frame); rect(inset, H - inset - 3, W - 2 * inset, 3, frame);
    rect(inset, inset, 3, H - 2 * inset, frame); rect(W - inset - 3, inset, 3, H - 2 * inset, frame);
  }
  rect(150, 40, 120, 12, [60, 60, 60]);
  const left = photo ? 140 : 50;
  for (let i = 0; i < 7; i++) rect(left, 80 + i * 24, rng.int(120, W - left - 60), 6, [95, 95, 95]);
  if (photo) {
    rect(44, 80, 72, 94, [200, 205, 215]);
    rect(62, 94, 36, 44, [120, 125, 140]);
  }
  // The seal: a red ring with a star.
  const cx = W - 100, cy = H - 75;
  for (let y = cy - 44; y <= cy + 44; y++) for (let x = cx - 44; x <= cx + 44; x++) {
    const d = Math.hypot(x - cx, y - cy);
    if ((d > 38 && d < 42) || (d < 10 && rng.chance(0.9))) set(x, y, [205, 40, 40]);
  }
  return px;
}

// The encoders load when the demo's scans are drawn, not with every start (main.ts imports the seed; issue 30).
const asJpeg = async (px: Buffer) => Buffer.from((await import('jpeg-js')).default.encode({ data: px, width: W, height: H }, 70).data);
async function asPng(px: Buffer): Promise<Buffer> {
  const { PNG } = await import('pngjs');
  const png = new PNG({ width: W, height: H });
  px.copy(png.data);
  return PNG.sync.write(png, { colorType: 2 });
}

type Scan = { name: string; bytes: Buffer };
let certs: Promise<Scan[]> | null = null;
let titles: Promise<Scan[]> | null = null;

/** Certificate scans: a photograph (JPEG, dark red frame) and a flatbed scan (PNG, blue frame). */
export function certificateImages(): Promise<{ name: string; bytes: Buffer }[]> {
  certs ??= (async () => [{ name: '照片.jpg', bytes: await asJpeg(draw(1, [140, 30, 30], true, true)) }, { name: '扫描件.png', bytes: await asPng(draw(2, [30, 60, 130], true, false)) }])();
  return certs;
}

/** Title certificate scans (职称证书 inner pages, PNG). */
export function titleImages(): Promise<{ name: string; bytes: Buffer }[]> {
  titles ??= (async () => [{ name: '扫描件.png', bytes: await asPng(draw(4, [120, 20, 20], true, false)) }, { name: '扫描件.png', bytes: await asPng(draw(5, [90, 50, 20], false, false)) }])();
  return titles;
}
