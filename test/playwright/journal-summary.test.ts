/**
 * What the Playwright fixture attaches for a failed test (src/playwright/attach-journal.ts), read
 * from a real harness's journal over HTTP: the summary keeps every near miss of an unanswered
 * call, is attached as a file (Playwright's terminal reporters cut a text body at 300
 * characters) and is printed whole on stderr.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHarness, defineScenarios } from 'scenario-harness';
import { createHarnessClient } from 'scenario-harness/client';
import { harnessMiddleware } from 'scenario-harness/express';
import express from 'express';
import { afterAll, beforeAll, expect, test, vi } from 'vitest';
import { attachJournal } from '../../src/playwright/attach-journal.js';

const scenarios = defineScenarios({
  default: {
    name: 'Refunds',
    mocks: [
      { method: 'POST', url: 'https://api.example.test/v1/refunds', response: { status: 201 } },
      { method: 'GET', url: 'https://api.example.test/v1/refunds', response: { body: {} } },
      { method: 'PATCH', url: 'https://api.example.test/v1/refunds', response: { status: 204 } },
    ],
  },
});
const harness = createHarness({ enabled: true, scenarios, unhandled: 'error', announce: false });
let server: Server;
let origin: string;

beforeAll(async () => {
  await harness.start();
  const app = express();
  app.use(harnessMiddleware(harness));
  app.get('/refund', async (_req, res) => {
    const answer = await fetch('https://api.example.test/v1/refunds', { method: 'PUT' }).catch(() => undefined);
    res.status(answer === undefined ? 502 : 200).end();
  });
  server = createServer(app).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await harness.stop();
});

test('a failed test’s summary lists every near miss of an unanswered call, in a file and whole on stderr', async () => {
  const client = createHarnessClient({ baseURL: origin });
  expect((await fetch(`${origin}/refund`, { headers: client.headers })).status).toBe(502);
  const [entry] = await client.calls();
  expect(entry?.nearMisses?.length).toBeGreaterThan(1);

  const dir = mkdtempSync(join(tmpdir(), 'harness-attach-'));
  const attachments: { name: string; contentType?: string; path?: string; body?: string | Buffer }[] = [];
  const testInfo = { outputPath: (name: string) => join(dir, name), attach: async (name: string, options: { contentType?: string; path?: string; body?: string | Buffer }) => void attachments.push({ name, ...options }) };
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  let printed: unknown[][];
  try {
    await attachJournal(client, testInfo, true);
  } finally {
    printed = [...stderr.mock.calls];
    stderr.mockRestore();
  }

  const summaryAttachment = attachments.find(({ name }) => name === 'scenario-harness calls');
  expect(summaryAttachment).toEqual({ name: 'scenario-harness calls', contentType: 'text/plain', path: join(dir, 'scenario-harness-calls.txt') });
  const summary = readFileSync(summaryAttachment!.path!, 'utf8').trimEnd();
  expect(summary.split('\n')).toEqual([
    `1 call of test "${client.testId}", oldest first (the full entries are in "scenario-harness journal"):`,
    'PUT https://api.example.test/v1/refunds → unanswered (failed); no mock answered it:',
    ...entry!.nearMisses!.map((line) => `    ${line}`),
  ]);
  expect(summary.length).toBeGreaterThan(300);
  expect(printed).toEqual([[`[scenario-harness] ${summary}\n`]]);
  expect(JSON.parse(String(attachments.find(({ name }) => name === 'scenario-harness journal')?.body))).toEqual({ testId: client.testId, calls: [entry] });
});

test("a failed test's summary lists the browser's calls and the server's in the order they came, the browser's marked", async () => {
  const client = createHarnessClient({ baseURL: origin });
  expect((await client.answer({ method: 'POST', url: 'https://api.example.test/v1/refunds', headers: { origin: 'http://shop.test' } })).answered).toBe(true);
  expect((await fetch(`${origin}/refund`, { headers: client.headers })).status).toBe(502);
  expect((await client.answer({ method: 'GET', url: 'https://api.example.test/v1/refunds', headers: {} })).answered).toBe(true);

  const dir = mkdtempSync(join(tmpdir(), 'harness-attach-'));
  const attachments: { name: string; path?: string }[] = [];
  const testInfo = { outputPath: (name: string) => join(dir, name), attach: async (name: string, options: { path?: string }) => void attachments.push({ name, ...options }) };
  const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await attachJournal(client, testInfo, true);
  } finally {
    stderr.mockRestore();
  }
  const summary = readFileSync(attachments.find(({ name }) => name === 'scenario-harness calls')!.path!, 'utf8');
  const calls = summary.split('\n').filter((line) => /^(\(browser\) )?[A-Z]+ https:/.test(line));
  expect(calls).toEqual([
    '(browser) POST https://api.example.test/v1/refunds → 201 by default#0',
    'PUT https://api.example.test/v1/refunds → unanswered (failed); no mock answered it:',
    '(browser) GET https://api.example.test/v1/refunds → 200 by default#1',
  ]);
});
