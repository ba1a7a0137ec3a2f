/**
 * The S3 driver of FileStorage (any S3-compatible store: MinIO, Ceph, OSS/COS in S3 mode…): uploads
 * stream through lib-storage's multipart Upload (5 MiB parts, two in flight: bounded memory whatever the
 * size), downloads stream the object's body.
 * The AWS SDK (about 70 ms to import) loads with the driver's first call, not at start (issue 30): a
 * server on the local driver never loads it.
 */
import type { S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { checkKey, Measure, storageNotFound, type FileStorage, type StorageConfig, type StoredObject } from './common.js';

const PART_SIZE = 5 * 1024 * 1024;

let sdk: Promise<[typeof import('@aws-sdk/client-s3'), typeof import('@aws-sdk/lib-storage')]> | undefined;
const loadSdk = () => (sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/lib-storage')]));

const missing = async (e: unknown) => {
  const { S3ServiceException } = (await loadSdk())[0];
  return e instanceof S3ServiceException && (e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404);
};

export class S3Storage implements FileStorage {
  readonly bucket: string;
  private readonly cfg: NonNullable<StorageConfig['s3']>;
  private clientP: Promise<S3Client> | undefined;
  constructor(cfg: NonNullable<StorageConfig['s3']>) {
    this.bucket = cfg.bucket;
    this.cfg = cfg;
  }

  /** The SDK client, made at the first call. */
  client(): Promise<S3Client> {
    return (this.clientP ??= loadSdk().then(([{ S3Client }]) => this.newClient(S3Client)));
  }

  private newClient(S3Client: typeof import('@aws-sdk/client-s3').S3Client): S3Client {
    const cfg = this.cfg;
    return new S3Client({
      region: cfg.region,
      ...(cfg.endpoint ? { endpoint: cfg.endpoint } : {}),
      forcePathStyle: cfg.forcePathStyle,
      ...(cfg.accessKeyId && cfg.secretAccessKey ? { credentials: { accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey } } : {}),
      // Checksums only when the operation needs one (S3-compatible stores differ in what they accept).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: string, body: Readable, opts: { contentType?: string } = {}): Promise<StoredObject> {
    checkKey(key);
    const [, { Upload }] = await loadSdk();
    const client = await this.client();
    const m = new Measure();
    const upload = new Upload({
      client,
      params: { Bucket: this.bucket, Key: key, Body: m, ...(opts.contentType ? { ContentType: opts.contentType } : {}) },
      partSize: PART_SIZE,
      queueSize: 2,
      leavePartsOnError: false,
    });
    // The source is piped into the measuring stream the upload reads; an error on either side fails both.
    const feeding = pipeline(body, m);
    try {
      await Promise.all([upload.done(), feeding]);
    } catch (e) {
      m.destroy();
      await upload.abort().catch(() => undefined);
      throw e;
    }
    return { size: m.bytes, sha256: m.sha256 };
  }

  async open(key: string): Promise<Readable> {
    checkKey(key);
    try {
      const [{ GetObjectCommand }] = await loadSdk();
      const r = await (await this.client()).send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      if (!r.Body) throw storageNotFound();
      return r.Body as Readable;
    } catch (e) {
      if (await missing(e)) throw storageNotFound();
      throw e;
    }
  }

  async remove(key: string): Promise<void> {
    checkKey(key);
    try {
      const [{ DeleteObjectCommand }] = await loadSdk();
      await (await this.client()).send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (e) {
      if (!(await missing(e))) throw e;
    }
  }

  async exists(key: string): Promise<boolean> {
    checkKey(key);
    try {
      const [{ HeadObjectCommand }] = await loadSdk();
      await (await this.client()).send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return true;
    } catch (e) {
      if (await missing(e)) return false;
      throw e;
    }
  }
}
