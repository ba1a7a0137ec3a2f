/**
 * The CJK font of the generated invoice PDF: Noto Sans SC Regular (SIL Open Font License 1.1) from
 * the npm package @expo-google-fonts/noto-sans-sc, read from node_modules (no network).
 * pdf-lib's own subsetter loses composite glyphs of this font, so the font is subset first with
 * HarfBuzz (subset-font, WebAssembly) to exactly the characters of the page and embedded whole.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
const FONT_PACKAGE = '@expo-google-fonts/noto-sans-sc';
const FONT_FILE = '400Regular/NotoSansSC_400Regular.ttf';

let fontBytes: Promise<Buffer> | null = null;

/** Where the font file is (resolved through the package's entry point). */
export function fontPath(): string {
  return path.join(path.dirname(require.resolve(FONT_PACKAGE)), FONT_FILE);
}

/** The whole font, read once per process (about 10 MB). */
function loadFont(): Promise<Buffer> {
  fontBytes ??= fs.readFile(fontPath()).catch((err: unknown) => {
    fontBytes = null;
    throw err;
  });
  return fontBytes;
}

/** A TrueType font holding exactly the glyphs of `text` (plus the space). */
export async function subsetFor(text: string): Promise<Buffer> {
  const chars = [...new Set(`${text} `)].join('');
  // HarfBuzz (WebAssembly) loads with the first PDF drawn, not at start (issue 30).
  const { default: subsetFont } = await import('subset-font');
  return subsetFont(await loadFont(), chars, { targetFormat: 'sfnt' });
}
