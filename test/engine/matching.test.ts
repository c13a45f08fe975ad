import { expect, test } from 'vitest';
import { json, startHarness } from './with-harness.js';

const API = 'https://api.x.test';

test('method: one, a list, or any', async () => {
  const { asTest } = await startHarness({
    default: {
      name: 'D',
      mocks: [
        { method: 'GET', url: `${API}/one`, response: { body: 'get' } },
        { method: ['PUT', 'PATCH'], url: `${API}/one`, response: { body: 'put-or-patch' } },
        { url: `${API}/one`, response: { body: 'any' } },
      ],
    },
  });
  await asTest(undefined, async () => {
    const text = async (method: string) => (await fetch(`${API}/one`, { method })).text();
    expect([await text('GET'), await text('PUT'), await text('PATCH'), await text('DELETE'), await text('post')]).toEqual(['get', 'put-or-patch', 'put-or-patch', 'any', 'any']);
  });
});

test('query, headers (case-insensitive), body and state criteria; the most specific match wins, ties to the first', async () => {
  const { harness, asTest } = await startHarness({
    default: {
      name: 'D',
      mocks: [
        { url: `${API}/search`, response: { body: { hit: 'plain' } } },
        { url: `${API}/search`, response: { body: { hit: 'plain, defined second' } } },
        { url: `${API}/search`, match: { query: { q: { startsWith: 'sh' } } }, response: { body: { hit: 'query' } } },
        { url: `${API}/search`, match: { query: { q: 'shoes' }, headers: { 'X-Plan': 'gold' } }, response: { body: { hit: 'query+header' } } },
        { method: 'POST', url: `${API}/search`, match: { body: { filter: { color: { regex: { source: '^(red|blue)$' } } } } }, response: { body: { hit: 'body' } } },
        { url: `${API}/search`, match: { state: { 'user.plan': 'gold' } }, response: { body: { hit: 'state' } } },
        { url: `${API}/login`, response: { status: 204 }, afterResponse: { setState: { 'user.plan': 'gold' } } },
      ],
    },
  });
  await asTest(undefined, async () => {
    expect((await json(`${API}/search`)).body).toEqual({ hit: 'plain' });
    expect((await json(`${API}/search?q=shirts`)).body).toEqual({ hit: 'query' });
    expect((await json(`${API}/search?q=shoes`, { headers: { 'x-plan': 'gold' } })).body).toEqual({ hit: 'query+header' });
    expect((await json(`${API}/search?q=shoes`, { headers: { 'x-plan': 'free' } })).body).toEqual({ hit: 'query' });
    const post = (filter: unknown) => json(`${API}/search`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ filter, page: 1 }) });
    expect((await post({ color: 'red', size: 'M' })).body).toEqual({ hit: 'body' });
    expect((await post({ color: 'green' })).body).toEqual({ hit: 'plain' });
    await fetch(`${API}/login`);
    expect((await json(`${API}/search`)).body).toEqual({ hit: 'state' });
  });
  expect(harness.enabled).toBe(true);
});

test('layers: the variant overlay, then the active scenario, then default', async () => {
  const { harness, asTest } = await startHarness({
    default: { name: 'D', mocks: [{ url: `${API}/a`, response: { body: 'default a' } }, { url: `${API}/b`, response: { body: 'default b' } }, { url: `${API}/c`, response: { body: 'default c' } }] },
    premium: {
      name: 'P',
      mocks: [{ url: `${API}/a`, response: { body: 'premium a' } }, { url: `${API}/b`, response: { body: 'premium b' } }],
      variants: { gold: { mocks: [{ url: `${API}/a`, response: { body: 'gold a, {{variant}}' } }] } },
    },
  });
  const texts = () => Promise.all(['a', 'b', 'c'].map(async (p) => (await fetch(`${API}/${p}`)).text()));
  await asTest('premium', async () => expect(await texts()).toEqual(['premium a', 'premium b', 'default c']));
  await asTest(undefined, async (testId) => {
    await harness.switchScenario(testId, 'premium', 'gold');
    expect(await texts()).toEqual(['gold a, gold', 'premium b', 'default c']);
  });
  await asTest(undefined, async (testId) => {
    await harness.switchScenario(testId, 'premium', 'undeclared' as 'gold'); // typed variants refuse it at compile time; this checks run time
    expect(await texts()).toEqual(['premium a', 'premium b', 'default c']);
  });
});

test('a less specific mock in a higher layer beats a more specific one below it', async () => {
  const { asTest } = await startHarness({
    default: { name: 'D', mocks: [{ url: `${API}/x`, match: { query: { a: '1' }, headers: { b: '2' } }, response: { body: 'default, specific' } }] },
    s: { name: 'S', mocks: [{ url: `${API}/x`, response: { body: 'scenario, plain' } }] },
  });
  await asTest('s', async () => expect(await (await fetch(`${API}/x?a=1`, { headers: { b: '2' } })).text()).toBe('scenario, plain'));
});

test('responses: status, headers, JSON and text bodies, templates from params, query, headers and body', async () => {
  const { asTest } = await startHarness({
    default: {
      name: 'D',
      mocks: [
        {
          method: 'POST',
          url: `${API}/users/:id`,
          response: {
            status: 201,
            headers: { 'x-user': 'u-{{params.id}}', 'set-cookie': 'a=1' },
            body: { id: '{{params.id}}', page: '{{query.page}}', agent: '{{headers.user-agent}}', name: '{{body.name}}', tags: '{{body.tags}}' },
          },
        },
        { url: `${API}/text`, response: { status: 418, body: 'short and stout', headers: { 'content-type': 'text/teapot' } } },
        { url: `${API}/empty`, response: { status: 204 } },
      ],
    },
  });
  await asTest(undefined, async () => {
    const response = await fetch(`${API}/users/7?page=2`, { method: 'POST', headers: { 'user-agent': 'ua', 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Ada', tags: ['x', 'y'] }) });
    expect(response.status).toBe(201);
    expect(response.headers.get('x-user')).toBe('u-7');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({ id: '7', page: '2', agent: 'ua', name: 'Ada', tags: ['x', 'y'] });
    const teapot = await fetch(`${API}/text`);
    expect([teapot.status, teapot.headers.get('content-type'), await teapot.text()]).toEqual([418, 'text/teapot', 'short and stout']);
    const empty = await fetch(`${API}/empty`);
    expect([empty.status, await empty.text()]).toEqual([204, '']);
  });
});

test('error: network fails the call like an unreachable server; delay holds the answer back', async () => {
  const { asTest } = await startHarness({
    default: { name: 'D', mocks: [{ url: `${API}/down`, response: { error: 'network' } }, { url: `${API}/slow`, response: { delay: 50, body: 'finally' } }] },
  });
  await asTest(undefined, async () => {
    await expect(fetch(`${API}/down`)).rejects.toThrow(TypeError);
    const started = performance.now();
    expect(await (await fetch(`${API}/slow`)).text()).toBe('finally');
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });
});

test('a URL RegExp in its data form (as scenario files write it) answers with its named groups as params', async () => {
  const { asTest } = await startHarness({
    default: { name: 'D', mocks: [{ url: { regex: { source: '^https://api\\.x\\.test/users/(?<id>\\d+)$' } }, response: { body: { id: '{{params.id}}' } } }] },
  });
  await asTest(undefined, async () => {
    expect((await json(`${API}/users/42`)).body).toEqual({ id: '42' });
    await expect(fetch(`${API}/users/abc`)).rejects.toThrow();
  });
});
