/** archiver 5 ships no types (and @types/archiver is not installed): the part the tender zip export uses. */
declare module 'archiver' {
  import type { Readable, Transform } from 'node:stream';
  interface EntryData {
    name: string;
    date?: Date;
    store?: boolean;
  }
  interface Archiver extends Transform {
    append(source: Readable | Buffer | string, data: EntryData): this;
    finalize(): Promise<void>;
    abort(): this;
    pointer(): number;
  }
  interface ZipOptions {
    zlib?: { level?: number };
    forceZip64?: boolean;
  }
  export default function archiver(format: 'zip', options?: ZipOptions): Archiver;
}
