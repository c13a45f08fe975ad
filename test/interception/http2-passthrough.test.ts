/**
 * A call the harness passes on to an upstream that speaks HTTP/2 (Node 26's fetch, undici 8,
 * negotiates it with allowH2; earlier lines speak HTTP/1.1 to the same server): answered as
 * without the harness, through global fetch and a fetch captured before start(), on every Node
 * line CI runs. The upstream is on loopback with a certificate made for the test.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, test } from 'vitest';

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL('./http2-child.mjs', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-h2-'));
let server: Http2SecureServer;
let port: number;

beforeAll(async () => {
  const [key, cert] = [join(work, 'key.pem'), join(work, 'cert.pem')];
  await run('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1']);
  server = createSecureServer({ key: readFileSync(key), cert: readFileSync(cert), allowHTTP1: true }, (request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ httpVersion: request.httpVersion, received: JSON.parse(body) as unknown }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

test('a pass-through to an HTTP/2-capable upstream answers as it does without the harness, in the protocol fetch chose', async () => {
  // 127.0.0.1 (in the certificate): no name lookup. The child's deadline comes before the test's,
  // so a stuck child fails with its stderr, which names the step it was in.
  const { stdout } = await run(process.execPath, [CHILD], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: join(work, 'cert.pem'), UPSTREAM_URL: `https://127.0.0.1:${port}/echo` },
    timeout: 50_000,
  }).catch((error: Error & { stderr?: string }) => {
    throw new Error(`the child failed or was stopped at its deadline: ${error.message}\nits stderr:\n${error.stderr ?? ''}`);
  });
  const { before, viaFetch, viaCaptured, mocked } = JSON.parse(stdout) as Record<string, { status: number; body: { httpVersion: string; received: unknown } }>;
  expect(before!.status).toBe(200);
  // Node 26's own fetch negotiates HTTP/2; the lines before it stay on HTTP/1.1.
  expect(before!.body.httpVersion).toBe(Number(process.versions.node.split('.')[0]) >= 26 ? '2.0' : '1.1');
  expect(viaFetch).toEqual(before);
  expect(viaCaptured).toEqual(before);
  expect(before!.body.received).toEqual({ n: 1 });
  expect(mocked).toEqual({ mocked: true });
}, 60_000);
