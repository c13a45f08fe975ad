import Fastify from 'fastify';
import { harnessPlugin } from 'scenario-harness/fastify';
import { expect, test } from 'vitest';

test('registering the plugin without a harness fails with a TypeError naming what it got', async () => {
  const app = Fastify();
  // @ts-expect-error -- the option a JavaScript caller might forget
  app.register(harnessPlugin, {});
  await expect(app.ready()).rejects.toThrow(new TypeError('Expected the "harness" option of harnessPlugin to be a harness from createHarness(), instead got undefined.'));
  await app.close();
});
