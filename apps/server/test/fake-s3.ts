/**
 * A small in-process S3-compatible server for tests (path-style: /bucket/key): PutObject, GetObject,
 * HeadObject, DeleteObject and the multipart calls (create, upload part, complete, abort). Objects live
 * in memory; `stats` counts the calls so a test can see a multipart upload happen.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeS3 {
  endpoint: string;
  objects: Map<string, { body: Buffer; contentType?: string }>;
  stats: { put: number; get: number; head: number; delete: number; create: number; part: number; complete: number; abort: number };
  close(): Promise<void>;
}

const xml = (res: http.ServerResponse, status: number, body: string) => {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>${body}`);
};
const noSuchKey = (res: http.ServerResponse, key: string) => xml(res, 404, `<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message><Key>${key}</Key></Error>`);
const etag = (b: Buffer) => `"${crypto.createHash('md5').update(b).digest('hex')}"`;

export async function startFakeS3(bucket = 'tender'): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; contentType?: string }>();
  const uploads = new Map<string, { key: string; parts: Map<number, Buffer> }>();
  const stats = { put: 0, get: 0, head: 0, delete: 0, create: 0, part: 0, complete: 0, abort: 0 };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const u = new URL(req.url ?? '/', 'http://localhost');
      const [, b, ...rest] = u.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      if (b !== bucket) return xml(res, 404, '<Error><Code>NoSuchBucket</Code><Message>no such bucket</Message></Error>');
      const q = u.searchParams;
      if (req.method === 'POST' && q.has('uploads')) {
        stats.create++;
        const id = crypto.randomUUID();
        uploads.set(id, { key, parts: new Map() });
        return xml(res, 200, `<InitiateMultipartUploadResult><Bucket>${bucket}</Bucket><Key>${key}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      if (req.method === 'PUT' && q.has('uploadId')) {
        const up = uploads.get(q.get('uploadId')!);
        if (!up) return xml(res, 404, '<Error><Code>NoSuchUpload</Code><Message>no such upload</Message></Error>');
        stats.part++;
        up.parts.set(Number(q.get('partNumber')), body);
        res.writeHead(200, { etag: etag(body) });
        return res.end();
      }
      if (req.method === 'POST' && q.has('uploadId')) {
        const id = q.get('uploadId')!;
        const up = uploads.get(id);
        if (!up) return xml(res, 404, '<Error><Code>NoSuchUpload</Code><Message>no such upload</Message></Error>');
        stats.complete++;
        const numbers = [...String(body).matchAll(/<PartNumber>(\d+)<\/PartNumber>/g)].map((m) => Number(m[1]));
        const content = Buffer.concat(numbers.map((n) => up.parts.get(n)!));
        objects.set(key, { body: content });
        uploads.delete(id);
        return xml(res, 200, `<CompleteMultipartUploadResult><Location>/${bucket}/${key}</Location><Bucket>${bucket}</Bucket><Key>${key}</Key><ETag>${etag(content)}</ETag></CompleteMultipartUploadResult>`);
      }
      if (req.method === 'DELETE' && q.has('uploadId')) {
        stats.abort++;
        uploads.delete(q.get('uploadId')!);
        res.writeHead(204);
        return res.end();
      }
      if (req.method === 'PUT') {
        stats.put++;
        objects.set(key, { body, contentType: req.headers['content-type'] });
        res.writeHead(200, { etag: etag(body) });
        return res.end();
      }
      const o = objects.get(key);
      if (req.method === 'GET') {
        stats.get++;
        if (!o) return noSuchKey(res, key);
        res.writeHead(200, { 'content-length': o.body.length, 'content-type': o.contentType ?? 'application/octet-stream', etag: etag(o.body) });
        return res.end(o.body);
      }
      if (req.method === 'HEAD') {
        stats.head++;
        res.writeHead(o ? 200 : 404, o ? { 'content-length': o.body.length, etag: etag(o.body) } : {});
        return res.end();
      }
      if (req.method === 'DELETE') {
        stats.delete++;
        objects.delete(key);
        res.writeHead(204);
        return res.end();
      }
      res.writeHead(405);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    stats,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The env of a test server whose storage is this fake store. */
export const s3Env = (s3: FakeS3, bucket = 'tender'): Record<string, string> => ({
  STORAGE_DRIVER: 's3',
  S3_ENDPOINT: s3.endpoint,
  S3_REGION: 'us-east-1',
  S3_BUCKET: bucket,
  S3_ACCESS_KEY_ID: 'test',
  S3_SECRET_ACCESS_KEY: 'test-secret',
  S3_FORCE_PATH_STYLE: '1',
});
