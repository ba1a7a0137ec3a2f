/**
 * Writes a PDF to a stream object by object, instead of pdf-lib's save(), which builds the whole file
 * in one buffer. The caller registers objects in a pdf-lib PDFContext as usual and calls `flush()`
 * now and then: every object in the context is serialised, its offset kept for the cross-reference
 * table, and it is deleted from the context, so the memory held is that of the objects since the last
 * flush. Objects in `keep` (the catalog, the page tree root, the document info…) stay in the context
 * until `finish()` writes what is left, the xref table and the trailer.
 *
 * Object numbers come from the context (context.nextRef()/register()), so they are never reused even
 * after a flushed object was deleted; a number never written (a reference a source left dangling)
 * gets a free entry, which readers treat as null.
 */
import crypto from 'node:crypto';
import type { Writable } from 'node:stream';
import { PDFHexString, PDFStream, type PDFContext, type PDFObject, type PDFRef } from 'pdf-lib';

const CHUNK = 256 * 1024;
/**
 * How much may wait in the stream's buffer before writing waits for it to drain: the file is written while
 * the next source is parsed, instead of one 16 KB buffer at a time (issue 30: 0.65 s of a 300-page export
 * was spent waiting on writes).
 */
const IN_FLIGHT = 8 * 1024 * 1024;
const enc = new TextEncoder();

export class StreamingPdfWriter {
  private offset = 0;
  private readonly offsets: number[] = [];
  private buf = Buffer.allocUnsafe(CHUNK);
  private used = 0;
  private readonly keep = new Set<string>();
  private failed: Error | null = null;
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly out: Writable,
    private readonly context: PDFContext,
  ) {}

  /** Objects that stay in the context until finish() (they are still being filled in). */
  keepUntilEnd(...refs: PDFRef[]): void {
    for (const r of refs) this.keep.add(r.tag);
  }

  async header(): Promise<void> {
    // The second line's bytes above 127 mark the file as binary for transfer programs.
    await this.raw(Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n\n', 'latin1'));
  }

  /** Bytes written so far. */
  get size(): number {
    return this.offset + this.used;
  }

  /** Writes out and releases every object of the context that is not kept. */
  async flush(): Promise<void> {
    for (const [ref, object] of this.context.enumerateIndirectObjects()) {
      if (this.keep.has(ref.tag)) continue;
      await this.object(ref, object);
      this.context.delete(ref);
    }
    await this.drain();
  }

  /** Writes the kept objects, the cross-reference table and the trailer; ends nothing (the caller ends the stream). */
  async finish(root: PDFRef, info: PDFRef | undefined): Promise<void> {
    this.keep.clear();
    await this.flush();
    const size = this.context.largestObjectNumber + 1;
    const xrefAt = this.size;
    let xref = `xref\n0 ${size}\n0000000000 65535 f\r\n`;
    await this.raw(enc.encode(xref));
    xref = '';
    for (let n = 1; n < size; n++) {
      const at = this.offsets[n];
      xref += at === undefined ? '0000000000 00001 f\r\n' : `${String(at).padStart(10, '0')} 00000 n\r\n`;
      if (xref.length > 64 * 1024) {
        await this.raw(enc.encode(xref));
        xref = '';
      }
    }
    const id = PDFHexString.of(crypto.randomBytes(16).toString('hex'));
    const trailer = this.context.obj({ Size: size, Root: root, ...(info ? { Info: info } : {}), ID: [id, id] });
    await this.raw(enc.encode(`${xref}trailer\n`));
    await this.raw(bytesOf(trailer));
    await this.raw(enc.encode(`\nstartxref\n${xrefAt}\n%%EOF\n`));
    await this.drain();
    // Everything handed to the stream is written (or its error thrown) before the caller ends it.
    await this.lastWrite;
    if (this.failed) throw this.failed;
  }

  private async object(ref: PDFRef, object: PDFObject): Promise<void> {
    this.offsets[ref.objectNumber] = this.size;
    await this.raw(enc.encode(`${ref.objectNumber} ${ref.generationNumber} obj\n`));
    if (object instanceof PDFStream) {
      // As PDFStream.copyBytesInto lays it out, but the contents (a scanned page's image) are written as
      // they are, not copied byte by byte into a new array first.
      object.updateDict();
      await this.raw(bytesOf(object.dict));
      await this.raw(enc.encode('\nstream\n'));
      await this.raw(object.getContents());
      await this.raw(enc.encode('\nendstream'));
    } else await this.raw(bytesOf(object));
    await this.raw(enc.encode('\nendobj\n\n'));
  }

  private async raw(bytes: Uint8Array): Promise<void> {
    if (this.used + bytes.length > CHUNK) await this.drain();
    if (bytes.length >= CHUNK) {
      await this.write(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
      return;
    }
    this.buf.set(bytes, this.used);
    this.used += bytes.length;
  }

  private async drain(): Promise<void> {
    if (!this.used) return;
    const chunk = this.buf.subarray(0, this.used);
    this.buf = Buffer.allocUnsafe(CHUNK);
    this.used = 0;
    await this.write(chunk);
  }

  private write(chunk: Buffer): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    this.offset += chunk.length;
    // A stream calls back its writes in order: the last one's callback means all are done.
    this.lastWrite = new Promise((resolve) =>
      this.out.write(chunk, (err) => {
        if (err) this.failed ??= err;
        resolve();
      }),
    );
    return this.out.writableLength > IN_FLIGHT && this.out.writableNeedDrain ? this.drained() : Promise.resolve();
  }

  /** Resolves when the stream's buffer is empty, rejects on its error. */
  private drained(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onDrain = () => (this.out.off('error', onError), resolve());
      const onError = (err: Error) => (this.out.off('drain', onDrain), reject(err));
      this.out.once('drain', onDrain);
      this.out.once('error', onError);
    });
  }
}

function bytesOf(object: PDFObject): Uint8Array {
  const bytes = new Uint8Array(object.sizeInBytes());
  object.copyBytesInto(bytes, 0);
  return bytes;
}
