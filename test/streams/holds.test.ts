/**
 * A test holds its stream (issue 40, item 3): a stream mock with `hold: { afterChunks }` stops
 * there under the calling test, the test reads the partial answer through the app, then
 * releases, steps or aborts it over the control API. Real HTTP throughout: an Express app relays
 * an upstream stream to its own client with fetch, undici and node:http.
 */
import { randomUUID } from 'node:crypto';
import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import OpenAI from 'openai';
import { createHarness, defineScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import { request as undiciRequest } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

const UPSTREAM = 'http://stream.upstream.test/events';
const EVENTS = ['one', 'two', 'three', 'four', 'five'];
const frame = (data: string) => `data: ${data}\n\n`;

const scenarios = defineScenarios({
  default: { name: 'Default', mocks: [] },
  chat: {
    name: 'A chat answer held after its first three chunks',
    mocks: [{ id: 'chat', method: 'POST', url: 'https://api.openai.com/v1/chat/completions', response: { llm: { api: 'openai.chat', text: 'Hello from a held stream', hold: { afterChunks: 3 } } } }],
  },
  held: {
    name: 'Held after two',
    mocks: [{ id: 'feed', method: 'GET', url: UPSTREAM, response: { stream: { events: EVENTS.map((data) => ({ data })), hold: { afterChunks: 2 } } } }],
  },
});

/** The app's upstream read, one way per client, each chunk handed on as it arrives. */
const readers: Record<string, (write: (chunk: Uint8Array) => void) => Promise<void>> = {
  async fetch(write) {
    const reader = (await fetch(UPSTREAM)).body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) write(read.value);
  },
  async undici(write) {
    const { body } = await undiciRequest(UPSTREAM);
    for await (const chunk of body) write(chunk as Uint8Array);
  },
  async http(write) {
    await new Promise<void>((resolve, reject) => {
      http.get(UPSTREAM, (response) => {
        response.on('data', write);
        response.on('end', resolve);
        response.on('error', reject);
        response.on('aborted', () => reject(new Error('aborted')));
      }).on('error', reject);
    });
  },
};

let server: Server;
let origin: string;
let stopHarness: () => Promise<void>;

beforeAll(async () => {
  const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false });
  await harness.start();
  stopHarness = () => harness.stop();
  const app = express();
  app.use(harnessMiddleware(harness));
  // The app streams the model's text to its page as the openai SDK hands it over.
  const openai = new OpenAI({ apiKey: 'sk-test', maxRetries: 0 });
  app.get('/chat', async (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    try {
      const stream = openai.chat.completions.stream({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      for await (const chunk of stream) res.write(chunk.choices[0]?.delta?.content ?? '');
      res.end(`\n[${(await stream.finalChatCompletion()).choices[0]!.message.content}]`);
    } catch (error) {
      res.end(`\n[failed: ${(error as Error).message}]`);
    }
  });
  app.get('/relay/:client', async (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    try {
      await readers[req.params.client]!((chunk) => res.write(chunk));
      res.end('\n[end]');
    } catch (error) {
      res.end(`\n[failed: ${(error as Error).message}]`);
    }
  });
  server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await stopHarness?.();
});

/** A test of its own: its client, and a reader of the app's relay that gathers text as it comes. */
async function startTest(client: string, scenario: 'held' | 'chat' = 'held', path = `/relay/${client}`) {
  const harness = createHarnessClient({ baseURL: origin, testId: randomUUID(), logger: { warn: () => {} } });
  await harness.switchScenario(scenario);
  const response = await fetch(`${origin}${path}`, { headers: harness.headers });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  /** Read until the text so far holds `expected` (the stream is held after it: no more can come). */
  async function readUntil(expected: string): Promise<string> {
    while (!text.includes(expected)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`The app's answer ended before ${JSON.stringify(expected)}: ${JSON.stringify(text)}`);
      text += value;
    }
    return text;
  }
  async function readAll(): Promise<string> {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += value;
    }
  }
  return { harness, readUntil, readAll };
}

describe.each(Object.keys(readers))('through %s', (client) => {
  test('the stream stops after two chunks, and the rest comes once the test releases it', async () => {
    const { harness, readUntil, readAll } = await startTest(client);
    const held = await harness.waitForStream('feed', { state: 'held' });
    expect(held).toMatchObject({ id: 'feed', method: 'GET', url: UPSTREAM, state: 'held', delivered: 2, total: 5, holdsAt: 2 });
    expect(await readUntil(frame('two'))).toBe(frame('one') + frame('two'));
    expect(await harness.streams()).toEqual([expect.objectContaining({ id: 'feed', state: 'held', delivered: 2 })]);
    await harness.releaseStream('feed');
    expect(await readAll()).toBe(EVENTS.map(frame).join('') + '\n[end]');
    expect(await harness.waitForStream('feed', { state: 'complete' })).toMatchObject({ delivered: 5, total: 5 });
    // The journal says how far the stream got, and how long the test held it.
    const [entry] = await harness.calls({ url: UPSTREAM });
    expect(entry!.stream).toEqual({ id: 'feed', chunks: 5, delivered: 5, state: 'complete', heldMs: expect.any(Number) });
  });

  test('a step lets one more chunk through and holds again; an abort fails the app\'s read', async () => {
    const { harness, readUntil, readAll } = await startTest(client);
    await harness.waitForStream('feed', { state: 'held' });
    const stepped = await harness.stepStream('feed');
    expect(stepped.holdsAt).toBe(3);
    await readUntil(frame('three'));
    expect(await harness.waitForStream('feed', { state: 'held', delivered: 3 })).toMatchObject({ delivered: 3, holdsAt: 3 });
    await harness.abortStream('feed');
    const text = await readAll();
    expect(text.startsWith(frame('one') + frame('two') + frame('three'))).toBe(true);
    expect(text).toMatch(/\n\[failed: [^\]]+\]$/);
    expect(text).not.toContain(frame('four'));
    expect(await harness.waitForStream('feed', { state: 'aborted' })).toMatchObject({ delivered: 3 });
    expect((await harness.calls({ url: UPSTREAM }))[0]!.stream).toMatchObject({ id: 'feed', chunks: 5, delivered: 3, state: 'aborted' });
  });
});

test('two tests stream the same URL at once: each holds, and releasing one leaves the other held', async () => {
  const first = await startTest('fetch');
  const second = await startTest('fetch');
  await Promise.all([first.harness.waitForStream('feed', { state: 'held' }), second.harness.waitForStream('feed', { state: 'held' })]);
  await first.harness.releaseStream('feed');
  expect(await first.readAll()).toBe(EVENTS.map(frame).join('') + '\n[end]');
  expect(await second.harness.streams()).toEqual([expect.objectContaining({ state: 'held', delivered: 2 })]);
  await second.harness.releaseStream('feed');
  expect(await second.readAll()).toBe(EVENTS.map(frame).join('') + '\n[end]');
});

test("an llm answer holds too: the page shows the first words through the openai SDK, then all of it", async () => {
  const { harness, readUntil, readAll } = await startTest('fetch', 'chat', '/chat');
  // An llm hold counts chunks of text (words here); on the wire openai.chat sends a role chunk first, so three words are four events.
  expect(await harness.waitForStream('chat', { state: 'held' })).toMatchObject({ delivered: 4, holdsAt: 4, method: 'POST', url: 'https://api.openai.com/v1/chat/completions' });
  expect(await readUntil('Hello from a')).toBe('Hello from a');
  await harness.releaseStream('chat');
  expect(await readAll()).toBe('Hello from a held stream\n[Hello from a held stream]');
  // Verification reaches into the LLM request the SDK sent: its model and messages (item 5).
  await harness.expectCalled({ method: 'POST', url: '*/v1/chat/completions', body: { model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'hi' }] } }, { times: 1 });
  await expect(harness.expectCalled({ url: '*/v1/chat/completions', body: { messages: [{ role: 'user', content: 'bye' }] } })).rejects.toThrow(/messages/);
});

describe('over HTTP, bad input gets a clear answer', () => {
  const post = (testId: string, body: unknown) =>
    fetch(`${origin}/__harness__/streams`, { method: 'POST', headers: { 'x-harness-test-id': testId, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  test('an unknown action, a step of 0 and an unknown key are 400s naming the field', async () => {
    const testId = randomUUID();
    for (const [body, field] of [
      [{ id: 'feed', action: 'pause' }, 'action'],
      [{ id: 'feed', action: 'step', count: 0 }, 'count'],
      [{ id: 'feed', action: 'release', colour: 'red' }, 'colour'],
      [{ action: 'release' }, 'id'],
    ] as const) {
      const response = await post(testId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { details: { field: string }[] }).details[0]!.field).toBe(field);
    }
  });

  test('a stream the test does not have is a 404 with a hint; waiting past the bound is refused', async () => {
    const response = await post(randomUUID(), { id: 'nope', action: 'release' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: expect.stringMatching(/has no stream "nope"\./) });
    expect(response.headers.get('x-harness-hint')).toMatch(/no streams yet/);
    const wait = await fetch(`${origin}/__harness__/streams?id=feed&state=held&waitMs=60000`, { headers: { 'x-harness-test-id': randomUUID() } });
    expect(wait.status).toBe(400);
    expect(((await wait.json()) as { error: string }).error).toMatch(/"waitMs" must be a whole number of milliseconds from 0 to 30000/);
  });

  test('a wait that times out says where the stream is', async () => {
    const { harness } = await startTest('fetch');
    await harness.waitForStream('feed', { state: 'held' });
    await expect(harness.waitForStream('feed', { state: 'complete', timeout: 50 })).rejects.toThrow(/did not get there within \d+ ms: it is held with 2 of 5 chunks delivered/);
    await harness.abortStream('feed');
  });
});
