/**
 * The child process of cold-start-imports.test.ts: records every module resolved from here on with its
 * importer (an ESM resolve hook) and every CommonJS module in require's cache, starts the server as `npm start` does
 * (src/main.ts, or SERVER_MAIN, a bundle's main.js: migrate, the first start's administrator, buildApp, listen) and waits for its first
 * answer; writes the list to LOAD_TRACE, then a marker, then loads ExcelJS the way a route does
 * (platform/heavy.ts), so the test can see the trace would show a package loaded. Env: LOAD_TRACE, PORT,
 * DATA_DIR, SERVER_MAIN and the server's own.
 */
import fs from 'node:fs';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const out = process.env.LOAD_TRACE!;
const hook = `
import fs from 'node:fs';
let out;
export function initialize(data) { out = data.out; }
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  fs.appendFileSync(out, r.url + ' ' + (context.parentURL ?? '') + '\\n');
  return r;
}`;
register(`data:text/javascript,${encodeURIComponent(hook)}`, { data: { out } });
const requireCache = () => Object.keys(createRequire(import.meta.url).cache);

// The bundle (apps/server/build.mjs) when the test gives one, else the sources through tsx.
if (process.env.SERVER_MAIN) await import(pathToFileURL(process.env.SERVER_MAIN).href);
else await import('../src/main.js');
const url = `http://127.0.0.1:${process.env.PORT}/version.json`;
for (let i = 0; ; i++) {
  const status = await fetch(url).then((r) => r.status, () => 0);
  if (status === 200) break;
  if (i > 1200) throw new Error('the server did not answer within 120 s');
  await new Promise((r) => setTimeout(r, 100));
}
fs.appendFileSync(out, `${requireCache().join('\n')}\n--- answered ---\n`);
await (await import('../src/platform/heavy.js')).loadExcelJS();
fs.appendFileSync(out, `${requireCache().join('\n')}\n`);
process.exit(0);
