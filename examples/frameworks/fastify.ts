import Fastify from 'fastify';
import { createHarness } from 'scenario-harness';
import { harnessPlugin } from 'scenario-harness/fastify';
import { scenarios } from './scenarios.js';

const harness = createHarness({
  enabled: process.env.HARNESS_ENABLED === 'true',
  scenarios,
  unhandled: 'error',
});
await harness.start();

const app = Fastify();
await app.register(harnessPlugin, { harness }); // on the root instance, before your routes

app.get('/', async () => 'ok');

app.get<{ Params: { login: string } }>('/profile/:login', async (request, reply) => {
  const response = await fetch(`https://api.github.com/users/${request.params.login}`);
  return reply.code(response.status).send(await response.json());
});

const port = Number(process.env.PORT ?? 3000);
await app.listen({ port, host: '127.0.0.1' });
console.log(`Listening on http://127.0.0.1:${port}`);
