/**
 * `Expect: 100-continue`: the client holds its body back until the server says "continue".
 * The AWS SDK does this for uploads over ~1 MiB and otherwise stalls until its own timeout.
 */
import http from 'node:http';
import https from 'node:https';
import { expect, test } from 'vitest';
import { startHarness } from '../engine/with-harness.js';

/** A PUT that, like the AWS SDK's handler, writes its body only on 'continue'; node:http itself never gives up waiting. */
function putWithExpectContinue(module: typeof http | typeof https, url: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = module.request(url, { method: 'PUT', headers: { expect: '100-continue', 'content-length': body.length, 'content-type': 'application/octet-stream' } });
    request.on('continue', () => request.end(body));
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk)).on('end', () => resolve({ status: response.statusCode!, text }));
    });
    request.on('error', reject);
  });
}

test('a mocked upload sent with Expect: 100-continue is answered, also when the mock reads the body', async () => {
  const { asTest } = await startHarness({
    default: {
      name: 'D',
      mocks: [
        { method: 'PUT', url: 'https://bucket.s3.x.test/big.bin', response: { headers: { etag: '"abc"' }, body: 'stored' } },
        { method: 'PUT', url: 'http://plain.x.test/echo-size', response: { body: 'got {{body}}' } },
      ],
    },
  });
  await asTest(undefined, async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 7);
    expect(await putWithExpectContinue(https, 'https://bucket.s3.x.test/big.bin', big)).toEqual({ status: 200, text: 'stored' });
    expect(await putWithExpectContinue(http, 'http://plain.x.test/echo-size', Buffer.from('small body'))).toEqual({ status: 200, text: 'got small body' });
  });
});
