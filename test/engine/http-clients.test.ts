import axios from 'axios';
import got from 'got';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { expect, test } from 'vitest';
import { json, startHarness } from './with-harness.js';

const scenarios = {
  default: { name: 'Default', mocks: [{ url: 'https://api.x.test/who', response: { body: { who: 'default' } } }] },
  alice: { name: 'Alice', mocks: [{ url: 'https://api.x.test/who', response: { body: { who: 'alice' } } }] },
  bob: { name: 'Bob', mocks: [{ url: 'https://api.x.test/who', response: { body: { who: 'bob' } } }] },
};

function viaNodeHttps(url: string, headers: Record<string, string> = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { headers }, (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve(JSON.parse(text)));
      })
      .on('error', reject);
  });
}

test('fetch, node:https, axios and got are all answered from the test\'s scenario', async () => {
  const { asTest } = await startHarness(scenarios);
  await asTest('alice', async () => {
    expect((await json('https://api.x.test/who')).body).toEqual({ who: 'alice' });
    expect(await viaNodeHttps('https://api.x.test/who')).toEqual({ who: 'alice' });
    expect((await axios.get('https://api.x.test/who')).data).toEqual({ who: 'alice' });
    expect(await got('https://api.x.test/who').json()).toEqual({ who: 'alice' });
  });
});

test('node:http calls are intercepted too', async () => {
  const { harness } = await startHarness({ default: { name: 'D', mocks: [{ url: 'http://plain.x.test/p', response: { body: 'plain text' } }] } });
  const text = await harness.run(randomUUID(), () => new Promise<string>((resolve) => http.get('http://plain.x.test/p', (res) => {
    let body = '';
    res.on('data', (c) => (body += c)).on('end', () => resolve(`${res.headers['content-type']}|${body}`));
  })));
  expect(text).toBe('text/plain; charset=utf-8|plain text');
});

test('the call\'s own test-ID header wins over the async context; without either, default-test', async () => {
  const { harness, asTest } = await startHarness(scenarios);
  const bob = randomUUID();
  await harness.switchScenario(bob, 'bob');
  await harness.switchScenario('default-test', 'alice');
  await asTest('alice', async () => {
    expect((await json('https://api.x.test/who', { headers: { 'x-harness-test-id': bob } })).body).toEqual({ who: 'bob' });
    expect((await axios.get('https://api.x.test/who', { headers: { 'x-harness-test-id': bob } })).data).toEqual({ who: 'bob' });
  });
  // Outside any run(): default-test, which this test switched to alice.
  expect((await json('https://api.x.test/who')).body).toEqual({ who: 'alice' });
  await harness.endTest('default-test');
  expect((await json('https://api.x.test/who')).body).toEqual({ who: 'default' });
});

test('forwardHeaders() and currentTestId() carry the current test ID', async () => {
  const { harness } = await startHarness(scenarios);
  expect(harness.currentTestId()).toBe('default-test');
  harness.run('t-forward', () => {
    expect(harness.currentTestId()).toBe('t-forward');
    expect(harness.forwardHeaders()).toEqual({ 'x-harness-test-id': 't-forward' });
  });
});

test('the async context survives timers, promise chains and event emitters', async () => {
  const { asTest } = await startHarness(scenarios);
  const who = await asTest('bob', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return new Promise((resolve) => setImmediate(async () => resolve((await json('https://api.x.test/who')).body)));
  });
  expect(who).toEqual({ who: 'bob' });
});
