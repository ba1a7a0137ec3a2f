/**
 * Packages that are slow to load and needed only by some calls (issue 30, cold start under 500 ms): each
 * is imported where it is used, with a dynamic `import()` at the first call that needs it (Node keeps the
 * module, so later calls get it at once), never by a static import on the way from `buildApp()` or
 * `main.ts`. `apps/server/test/cold-start-imports.test.ts` builds the app and fails if one of them is loaded.
 * Import times alone on the development machine (docs/performance.md, "Cold start"): ExcelJS 106 ms,
 * pdf-lib 90 ms, the AWS SDK 73 ms, archiver 39 ms.
 */
export const LAZY_PACKAGES = [
  'exceljs',
  'pdf-lib',
  '@pdf-lib/fontkit',
  'subset-font',
  'harfbuzzjs',
  '@aws-sdk/client-s3',
  '@aws-sdk/lib-storage',
  'archiver',
  'saxes',
  'jpeg-js',
  'pngjs',
  'jsqr',
  'jszip',
  'pdfjs-dist',
] as const;

/**
 * ExcelJS, for the sheets read or written on the request's thread (imports and templates; exports run
 * in platform/xlsx-worker.ts, a thread of their own).
 */
export const loadExcelJS = async (): Promise<typeof import('exceljs')> => (await import('exceljs')).default;
