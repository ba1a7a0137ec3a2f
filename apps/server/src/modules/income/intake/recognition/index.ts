/** Recognition of uploaded invoice files (issue 13), free of database and network: see docs/income-recognition.md. The AI call log wrapper is ./logged.js. */
export { recognise, Messages as RecognitionMessages, MAX_FILE_BYTES, type UploadedFile } from './recognise.js';
export * from './types.js';
