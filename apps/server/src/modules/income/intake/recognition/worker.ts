/**
 * The recognition worker (./off-thread.ts): a thread of its own that runs `recognise` on the bytes it is
 * sent and answers the result. Decoding a large image or PDF and scanning it for the QR code is seconds
 * of CPU; here it never holds the server's request thread.
 */
import { parentPort } from 'node:worker_threads';
import { recognise, type UploadedFile } from './recognise.js';

parentPort!.on('message', (m: { id: number; file: UploadedFile }) => {
  recognise(m.file).then(
    (value) => parentPort!.postMessage({ id: m.id, ok: true, value }),
    (err: unknown) => parentPort!.postMessage({ id: m.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
  );
});
