/**
 * DNS rebinding in a real Chromium (issue 37.4): a page at `http://evil$.example:<port>/`, whose
 * name resolves to the app's own address (here by `--host-resolver-rules`, as a rebinding DNS
 * server would answer), fetches the journal same-origin. Chromium sends `Host: evil$.example:<port>`,
 * which the origin check once read as "no host name, so no browser" and answered. Without
 * chromium this is skipped loudly on a developer machine and fails on CI.
 * @see https://github.com/scenario-harness/scenario-harness/issues/37
 */
import { existsSync } from 'node:fs';
import { chromium as playwrightChromium, type Browser } from '@playwright/test';
import { createHarness } from 'scenario-harness';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHandlerApp, type App } from './apps.js';

const executablePath = process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium';
const onCI = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI!.toLowerCase());
const hasChromium = existsSync(executablePath);
if (!hasChromium && onCI) throw new Error(`No chromium at ${executablePath}, and the rebinding test must run on CI. Install it: sudo apt-get install -y chromium`);
if (!hasChromium) console.warn(`\n${'!'.repeat(100)}\n!! No chromium at ${executablePath}: the DNS-rebinding browser test is SKIPPED.\n!! Install it with: sudo apt-get install -y chromium\n${'!'.repeat(100)}\n`);

const VICTIM = 'victim-test';
let app: App;
let browser: Browser;

beforeAll(async () => {
  if (!hasChromium) return;
  const harness = createHarness({
    enabled: true,
    scenarios: { default: { name: 'Default', mocks: [{ url: 'https://api.bank.example/balance', response: { body: { balance: 1234 } } }] } },
    announce: false,
    logger: { warn: () => {}, error: () => {} },
  });
  await harness.start();
  // The page the attacker's name serves: the app's own, since the name resolves to the app.
  app = await startHandlerApp(harness, (_req, res) => void res.setHeader('content-type', 'text/html').end('<!doctype html><title>page</title>'));
  await harness.run(VICTIM, () => fetch('https://api.bank.example/balance'));
  browser = await playwrightChromium.launch({
    executablePath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--host-resolver-rules=MAP * 127.0.0.1', '--no-proxy-server'],
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Open `origin` in a fresh page and read the victim's journal from it, same-origin, as its script would. */
async function readJournalFrom(origin: string): Promise<{ host: string; status: number; text: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(`${origin}/`);
    const answer = await page.evaluate(async (testId) => {
      const response = await fetch('/__harness__/journal', { headers: { 'x-harness-test-id': testId } });
      return { status: response.status, text: await response.text() };
    }, VICTIM);
    return { host: new URL(page.url()).host, ...answer };
  } finally {
    await page.close();
  }
}

test.skipIf(!hasChromium)('a page at evil$.example (resolved to the app) can no longer read another test\'s journal', async () => {
  for (const name of ['evil$.example', 'ev!l.example', 'evil.example']) {
    const read = await readJournalFrom(`http://${name}:${app.port}`);
    // The browser kept the odd name as the page's host, so the Host header carried it.
    expect(read.host).toBe(`${name}:${app.port}`);
    expect({ name, status: read.status }).toEqual({ name, status: 403 });
    expect(read.text).not.toContain('api.bank.example');
  }
});

test.skipIf(!hasChromium)('the app\'s own pages on localhost and 127.0.0.1 still read it', async () => {
  for (const origin of [`http://localhost:${app.port}`, `http://127.0.0.1:${app.port}`]) {
    const read = await readJournalFrom(origin);
    expect({ origin, status: read.status }).toEqual({ origin, status: 200 });
    expect(JSON.parse(read.text)).toMatchObject({ testId: VICTIM, calls: [{ url: 'https://api.bank.example/balance' }] });
  }
});
