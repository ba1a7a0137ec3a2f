/**
 * One recognition call as one row of the AI call log (interface invoice-ocr, 发票识别), which
 * /system/report/ai-interface-statistic reports on: a success when at least one field was recognised,
 * the warnings as its message, the file name and the time taken. The upload route calls this; the
 * recogniser itself stays free of the database. It and its decoders (JSZip, pngjs, jpeg-js, jsQR, saxes)
 * load with the first upload, not at server start (issue 11: cold start).
 */
import { performance } from 'node:perf_hooks';
import type { Db } from '../../../../db/index.js';
import { recordAiCall, type AiCaller } from '../../../../integrations/ai/calls.js';
import type { UploadedFile } from './recognise.js';
import type { Recognition } from './types.js';

export const RECOGNITION_INTERFACE = 'invoice-ocr';

export async function recogniseAndLog(db: Db, user: AiCaller | null, file: UploadedFile): Promise<Recognition> {
  const started = performance.now();
  const meta = { interfaceCode: RECOGNITION_INTERFACE, user, fileName: file.name };
  let result: Recognition;
  try {
    const { recogniseOffThread } = await import('./off-thread.js');
    result = await recogniseOffThread(file);
  } catch (err) {
    await recordAiCall(db, { ...meta, success: false, durationMs: performance.now() - started, message: err instanceof Error ? err.message : String(err) });
    throw err;
  }
  const success = Object.keys(result.fields).length > 0;
  await recordAiCall(db, { ...meta, success, durationMs: performance.now() - started, message: result.warnings.join('；') });
  return result;
}
