/**
 * The assemblers of a tender export: pdf-lib, fontkit and subset-font (the PDF) and archiver (the zip) load
 * with the first export of the format, not at start (issue 30; platform/heavy.ts).
 */
export const assemblePdf: typeof import('./pdf/assemble.js').assemblePdf = async (...args) => (await import('./pdf/assemble.js')).assemblePdf(...args);
export const assembleZip: typeof import('./zip.js').assembleZip = async (...args) => (await import('./zip.js')).assembleZip(...args);
