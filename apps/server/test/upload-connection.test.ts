/**
 * Issue 30: a refused upload must not hold up the next request on the same keep-alive connection (a
 * tender upload's unread body once kept it waiting 73 s). Each refusal of a streamed tender upload (the
 * format, the query, the role, the session, the owner kind) is answered and the rest of its body read or
 * discarded, so the next request on the same socket is answered; a JSON body over its route's limit is
 * answered 413 and the connection closed, never left half-read. Raw sockets, ordering only: the second
 * answer arrives on the same connection (the test's timeout guards against a hang).
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let port = 0;
let contractId = '';
beforeAll(async () => {
  s = await startTestServer();
  await s.app.listen({ port: 0, host: '127.0.0.1' });
  port = (s.app.server.address() as net.AddressInfo).port;
  contractId = (await s.db.kysely.selectFrom('contracts').select('id').limit(1).executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await s?.close();
});

interface Answer {
  status: number;
  closed: boolean;
}

/** Sends one request on the socket and reads one whole answer, or the socket's close. */
function exchange(sock: net.Socket, request: Buffer): Promise<Answer> {
  return new Promise((resolve) => {
    let buf = Buffer.alloc(0);
    const done = (a: Answer) => {
      sock.off('data', onData);
      sock.off('close', onClose);
      resolve(a);
    };
    const onData = (d: Buffer) => {
      buf = Buffer.concat([buf, d]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
      if (buf.length >= end + 4 + length) done({ status: Number(head.split(' ')[1]), closed: false });
    };
    const onClose = () => done({ status: 0, closed: true });
    sock.on('data', onData);
    sock.on('close', onClose);
    sock.write(request);
  });
}

async function connect(): Promise<net.Socket> {
  const sock = net.connect(port, '127.0.0.1');
  sock.on('error', () => undefined); // the server may close while the body is still being written (EPIPE)
  await new Promise((resolve) => sock.once('connect', resolve));
  return sock;
}

const request = (path: string, token: string, contentType: string, body: Buffer) =>
  Buffer.concat([Buffer.from(`POST ${path} HTTP/1.1\r\nHost: t\r\nx-token: ${token}\r\ncontent-type: ${contentType}\r\ncontent-length: ${body.length}\r\n\r\n`), body]);

const CASES: Array<[string, { who: string; kind?: string; ownerKind?: string }, number]> = [
  ['not a PDF, JPG or PNG (只能上传PDF、JPG或PNG文件)', { who: 'demo6' }, 400],
  ['a query out of its schema', { who: 'demo6', kind: 'x' }, 400],
  ['a role without the right', { who: 'demo23' }, 403],
  ['no session', { who: '' }, 401],
  ['an unknown owner kind', { who: 'demo6', ownerKind: 'nobody' }, 400],
];

it.each(CASES)('a tender upload refused for %s leaves the connection answering the next request', async (_why, c, status) => {
  const token = c.who ? await s.login(c.who) : 'no-session';
  const next = request('/api/account/userinfo', await s.login('demo6'), 'application/json', Buffer.from('{}'));
  const q = new URLSearchParams({ ownerKind: c.ownerKind ?? 'contract', ownerId: contractId, kind: c.kind ?? '0', name: '扫描件.pdf' }).toString();
  const sock = await connect();
  try {
    const first = await exchange(sock, request(`/api/tender/attachment/upload?${q}`, token, 'application/octet-stream', Buffer.alloc(1_500_000, 0x41)));
    expect(first.status).toBe(status);
    expect(await exchange(sock, next)).toEqual({ status: 200, closed: false });
  } finally {
    sock.destroy();
  }
}, 60_000);

it('a JSON body over its route limit is answered 413 and the connection closed, not left half-read', async () => {
  const token = await s.login('demo6');
  const body = Buffer.concat([Buffer.from('{"billId":"00000000-0000-4000-8000-000000000001","name":"a.pdf","content":"'), Buffer.alloc(16_000_000, 0x41), Buffer.from('"}')]);
  const sock = await connect();
  try {
    expect(await exchange(sock, request('/api/reimbursement/attachment/upload', token, 'application/json', body))).toEqual({ status: 413, closed: false });
    // The next request finds the connection closed at once (the client opens another), never a wait.
    expect(await exchange(sock, request('/api/account/userinfo', token, 'application/json', Buffer.from('{}')))).toEqual({ status: 0, closed: true });
  } finally {
    sock.destroy();
  }
}, 60_000);
