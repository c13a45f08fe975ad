import Fastify from 'fastify';
import fastify4 from 'fastify4';
import { harnessPlugin } from 'scenario-harness/fastify';
import { expect, test } from 'vitest';

test.each([
  ['fastify 5', Fastify],
  ['fastify 4', fastify4 as unknown as typeof Fastify],
])('%s: registering the plugin without a harness fails with a TypeError naming what it got', async (_major, framework) => {
  const app = framework();
  // @ts-expect-error -- the option a JavaScript caller might forget
  app.register(harnessPlugin, {});
  await expect(app.ready()).rejects.toThrow(new TypeError('Expected the "harness" option of harnessPlugin to be a harness from createHarness(), instead got undefined.'));
  await app.close();
});
