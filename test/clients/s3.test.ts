/**
 * @aws-sdk/client-s3, built at import time with fake credentials and a fixed region, driven
 * through an Express app: objects per test, an export polled through a sequence (404 NoSuchKey
 * until it exists), a text upload matched on its body, a 2.5 MiB upload with
 * `Expect: 100-continue` answered without a stall, binary GetObject, setState, and an
 * unanswered ListObjectsV2.
 */
import { createHash, randomUUID } from 'node:crypto';
import { defineScenarios } from 'scenario-harness';
import { expect, test } from 'vitest';
import type { Gate } from './gates.js';
import { s3Routes } from './s3-app.js';
import { useClientApp } from './use-client-app.js';

// Virtual-hosted style, as the SDK addresses the bucket in eu-west-1.
const OBJECTS = 'https://shop-uploads.s3.eu-west-1.amazonaws.com';
const text = (body: string) => ({ headers: { 'content-type': 'text/plain' }, body });
const s3Error = (status: number, code: string, message: string) => ({
  status,
  headers: { 'content-type': 'application/xml' },
  body: `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message><RequestId>R1</RequestId></Error>`,
});
const noSuchKey = s3Error(404, 'NoSuchKey', 'The specified key does not exist.');
// The first bytes of a PNG file and one more: binary that is not valid UTF-8.
const LOGO = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);
const BIG = 2.5 * 1024 * 1024;

const scenarios = defineScenarios({
  default: {
    name: 'Storage works',
    mocks: [
      { method: 'GET', url: `${OBJECTS}/latest.txt`, response: text('default receipt') },
      { method: 'GET', url: `${OBJECTS}/report.csv`, sequence: { responses: [noSuchKey, noSuchKey, text('sku,qty\nA1,2\n')] } },
      { method: 'GET', url: `${OBJECTS}/logo.png`, response: { headers: { 'content-type': 'image/png' }, bodyBase64: LOGO.toString('base64') } },
      {
        method: 'PUT',
        url: `${OBJECTS}/:key`,
        match: { headers: { 'content-type': 'text/plain' }, body: { startsWith: 'order ' } },
        response: { headers: { etag: '"{{params.key}}-v1"' } },
        afterResponse: { setState: { 'uploads[]': '{{params.key}}', 'last.upload': '{{body}}' } },
      },
      {
        method: 'PUT',
        url: `${OBJECTS}/big-backup.bin`,
        match: { headers: { expect: '100-continue' }, body: { startsWith: 'BIG:' } },
        response: { headers: { etag: '"big-{{headers.content-length}}"' } },
      },
      { method: 'PUT', url: `${OBJECTS}/:key`, response: s3Error(403, 'AccessDenied', 'Access Denied') },
    ],
  },
  alice: { name: 'Alice', mocks: [{ method: 'GET', url: `${OBJECTS}/latest.txt`, response: text('alice receipt') }] },
  bob: { name: 'Bob', mocks: [{ method: 'GET', url: `${OBJECTS}/latest.txt`, response: text('bob receipt') }] },
});

const app = useClientApp({ scenarios, routes: s3Routes });

test('three test IDs in flight at once each get their own scenario\'s object', async () => {
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
  await app().switchScenario(a, 'alice');
  await app().switchScenario(b, 'bob');
  const [gateA, gateB, gateC] = [a, b, c].map((id) => app().gates.gate(id)) as [Gate, Gate, Gate];
  try {
    const requestA = app().call(a, `/receipts/latest-twice/${a}`);
    await gateA.arrived;
    const requestB = app().call(b, `/receipts/latest-twice/${b}`);
    await gateB.arrived;
    const requestC = app().call(c, `/receipts/latest-twice/${c}`);
    await gateC.arrived;
    gateC.release();
    expect(await requestC).toEqual({ status: 200, body: { first: 'default receipt', second: 'default receipt' } });
    gateB.release();
    expect(await requestB).toEqual({ status: 200, body: { first: 'bob receipt', second: 'bob receipt' } });
    gateA.release();
    expect(await requestA).toEqual({ status: 200, body: { first: 'alice receipt', second: 'alice receipt' } });
  } finally {
    [gateA, gateB, gateC].forEach((gate) => gate.release());
  }
});

test('an export polled through a sequence: NoSuchKey, NoSuchKey, then the file — per test ID', async () => {
  const [a, b] = [randomUUID(), randomUUID()];
  const poll = async (testId: string) => (await app().call(testId, '/exports/report.csv')).body;
  expect(await poll(a)).toEqual({ ready: false });
  expect(await poll(a)).toEqual({ ready: false });
  expect(await poll(b)).toEqual({ ready: false });
  expect(await poll(a)).toEqual({ ready: true, content: 'sku,qty\nA1,2\n' });
  expect(await poll(a)).toEqual({ ready: true, content: 'sku,qty\nA1,2\n' });
});

test('a text upload is matched on its body (a string matcher) and content type, and feeds templates; another body is denied', async () => {
  const testId = randomUUID();
  expect(await app().call(testId, '/files/order-7.txt', { method: 'PUT', body: { text: 'order 7: 2 x A1' } })).toEqual({ status: 200, body: { etag: '"order-7.txt-v1"' } });
  expect(await app().call(testId, '/files/notes.txt', { method: 'PUT', body: { text: 'shopping list' } })).toEqual({ status: 200, body: { rejected: 'AccessDenied', status: 403 } });
});

test('a 2.5 MiB PutObject sent with Expect: 100-continue is answered after its whole body was read, without a stall', async () => {
  // A stall would end in the SDK's 3 s requestTimeout (s3-app.ts) and a 502 here; the mock
  // answers only when the header was sent and the body starts as the app wrote it.
  expect(await app().call(randomUUID(), '/big-files/big-backup.bin', { method: 'PUT', body: { size: BIG } })).toEqual({ status: 200, body: { etag: `"big-${BIG}"` } });
});

test('GetObject returns a binary body (bodyBase64) byte for byte', async () => {
  expect(await app().call(randomUUID(), '/images/logo.png')).toEqual({
    status: 200,
    body: { contentType: 'image/png', size: LOGO.length, sha256: createHash('sha256').update(LOGO).digest('hex') },
  });
});

test('afterResponse.setState is read back through GET /__harness__/state', async () => {
  const testId = randomUUID();
  await app().call(testId, '/files/order-1.txt', { method: 'PUT', body: { text: 'order 1: 1 x B2' } });
  await app().call(testId, '/files/order-2.txt', { method: 'PUT', body: { text: 'order 2: 3 x C3' } });
  expect(await app().state(testId)).toEqual({ status: 200, body: { testId, state: { uploads: ['order-1.txt', 'order-2.txt'], 'last.upload': 'order 2: 3 x C3' } } });
});

test('an unanswered call (ListObjectsV2) fails in the app with an error that names scenario-harness and the test ID', async () => {
  const testId = randomUUID();
  const reply = await app().call(testId, '/files');
  expect(reply.status).toBe(502);
  const messages = (reply.body as { errors: string[] }).errors;
  expect(messages.find((message) => message.includes(`[scenario-harness] No mock answers GET ${OBJECTS}/ `))).toContain(`for test "${testId}"`);
});
