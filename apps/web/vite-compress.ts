/**
 * Writes brotli (.br) and gzip (.gz) copies of the built text files next to them, so the server
 * sends them pre-compressed (@fastify/static preCompressed) without compressing on every request.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const TEXT = /\.(js|mjs|css|html|json|svg|txt|map|wasm)$/;
/** Smaller files gain less than their headers cost. */
const MIN_BYTES = 1024;

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(full) : [full];
  });
}

async function compressFile(file: string): Promise<void> {
  const raw = await fs.promises.readFile(file);
  const [br, gz] = await Promise.all([
    brotli(raw, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
    gzip(raw, { level: 9 }),
  ]);
  // A copy that is not smaller is left out; the server then sends the file itself.
  if (br.length < raw.length) await fs.promises.writeFile(`${file}.br`, br);
  if (gz.length < raw.length) await fs.promises.writeFile(`${file}.gz`, gz);
}

export function compressAssets(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'zhyy-compress-assets',
    apply: 'build',
    configResolved(c) {
      config = c;
    },
    // After every file (including public/ and version.json) is written.
    async closeBundle() {
      const outDir = path.resolve(config.root, config.build.outDir);
      if (!fs.existsSync(outDir)) return;
      const files = filesUnder(outDir).filter((f) => TEXT.test(f) && fs.statSync(f).size >= MIN_BYTES);
      await Promise.all(files.map(compressFile));
    },
  };
}
