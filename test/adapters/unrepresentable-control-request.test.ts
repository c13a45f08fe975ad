import { request } from 'node:http';
import { expect, test } from 'vitest';
import type { StartFixture } from '../conformance/fixture.js';
import { startFastifyFixture } from './fixtures/fastify.js';
import { startKoaFixture } from './fixtures/koa.js';
import { startExpressFixture } from './fixtures/express.js';
import { startNodeFixture } from './fixtures/node.js';

/** A TRACE: node:http accepts it, the Fetch API cannot represent it (`new Request` throws); Node adapters read it without the Fetch API. */
function trace(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    request(url, { method: 'TRACE' }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

test.each<[string, StartFixture]>([
  ['express', startExpressFixture('before')],
  ['node:http', startNodeFixture],
  ['fastify', startFastifyFixture],
  ['koa', startKoaFixture('after')],
])('%s answers a control request the Fetch API cannot represent (TRACE) with a 405 JSON error, not a 500', async (_, start) => {
  const app = await start({ enabled: true, upstream: 'http://127.0.0.1:9' });
  try {
    const { status, body } = await trace(app.url('/__scenario__'));
    expect(status).toBe(405);
    expect(JSON.parse(body)).toEqual({ error: 'Method TRACE is not allowed on /__scenario__. Use POST, DELETE, GET.' });
  } finally {
    await app.close();
  }
});
