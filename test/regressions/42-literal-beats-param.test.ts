/**
 * Issue 42 item 3: `GET …/movie/:id` defined before `GET …/movie/popular` answered
 * `movie/popular` too, so the second mock could never answer. Within a layer, after the count of
 * match keys, the more specific URL wins, as routers rank routes (a literal segment over a
 * `:param` over a `*`), whichever mock is defined first. Over real HTTP: an Express app whose
 * route calls TMDB with fetch, scenarios switched and per-test mocks added through the client.
 * @see https://github.com/scenario-harness/scenario-harness/issues/42
 */
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHarness, type Mock } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { afterAll, beforeAll, expect, test } from 'vitest';

const TMDB = 'https://api.themoviedb.org/3';
const byId = (from: string): Mock => ({ method: 'GET', url: `${TMDB}/movie/:id`, response: { body: { from, id: '{{params.id}}' } } });
const popular = (from: string): Mock => ({ method: 'GET', url: `${TMDB}/movie/popular`, response: { body: { from, results: [] } } });

const scenarios = {
  default: { name: 'Param first', mocks: [byId('default :id'), popular('default popular')] },
  literalFirst: { name: 'Literal first', mocks: [popular('scenario popular'), byId('scenario :id')] },
  withVariant: {
    name: 'Empty, with a variant',
    mocks: [],
    variants: { both: { mocks: [byId('variant :id'), popular('variant popular')] } },
  },
  globsAndKeys: {
    name: 'A catch-all and a match key',
    mocks: [
      { method: 'GET', url: `${TMDB}/*`, response: { status: 404, body: { from: 'catch-all' } } },
      { method: 'GET', url: `${TMDB}/movie/:id`, match: { query: { language: 'fr' } }, response: { body: { from: ':id in French' } } },
      popular('scenario popular'),
    ] satisfies Mock[],
  },
};

const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false });
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/movies/:id', async (req, res) => {
    const query = new URL(req.url, 'http://app').search;
    const response = await fetch(`${TMDB}/movie/${req.params.id}${query}`);
    res.json({ status: response.status, body: await response.json() });
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});

function newTest() {
  const client = createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} } });
  const movie = async (path: string) => ((await (await fetch(`${origin}/movies/${path}`, { headers: client.headers })).json()) as { body: { from: string } }).body;
  return { client, movie };
}

test('a scenario answers movie/popular from the literal mock and movie/42 from the :id one, in either order', async () => {
  const { client, movie } = newTest();
  expect(await movie('popular')).toEqual({ from: 'default popular', results: [] });
  expect(await movie('42')).toEqual({ from: 'default :id', id: '42' });
  await client.switchScenario('literalFirst');
  expect(await movie('popular')).toEqual({ from: 'scenario popular', results: [] });
  expect(await movie('42')).toEqual({ from: 'scenario :id', id: '42' });
});

test("a variant's overlay ranks its mocks the same way", async () => {
  const { client, movie } = newTest();
  await client.switchScenario('withVariant', { variant: 'both' });
  expect(await movie('popular')).toEqual({ from: 'variant popular', results: [] });
  expect(await movie('42')).toEqual({ from: 'variant :id', id: '42' });
});

test("a test's own mocks rank the same way, whichever was added last", async () => {
  const paramLast = newTest();
  await paramLast.client.use(popular('own popular'), byId('own :id'));
  expect(await paramLast.movie('popular')).toEqual({ from: 'own popular', results: [] });
  expect(await paramLast.movie('42')).toEqual({ from: 'own :id', id: '42' });

  const literalLast = newTest();
  await literalLast.client.use(byId('own :id'));
  await literalLast.client.use(popular('own popular'));
  expect(await literalLast.movie('popular')).toEqual({ from: 'own popular', results: [] });
  expect(await literalLast.movie('42')).toEqual({ from: 'own :id', id: '42' });
});

test('match keys still count first: a :param with a match key beats the literal for the calls it matches; a catch-all defined first answers only what nothing else does', async () => {
  const { client, movie } = newTest();
  await client.switchScenario('globsAndKeys');
  expect(await movie('popular')).toEqual({ from: 'scenario popular', results: [] });
  expect(await movie('popular?language=fr')).toEqual({ from: ':id in French' });
  expect(await movie('42')).toEqual({ from: 'catch-all' });
});
