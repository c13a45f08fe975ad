#!/usr/bin/env node
// The extra hop of a browser call answered by the app's harness (issue 26): the page's fetch of a
// third-party URL, routed by Playwright to the app's POST /__harness__/answer and fulfilled with
// its answer (the hop `use: { harnessBrowser: true }` takes, here through the client's answer()),
// beside the same fetch fulfilled by `route.fulfill` with a constant. Timed inside the page
// (performance.now() around fetch + reading the body), sequentially; reports median and p99.
//
//   node bench/browser-hop.js            (after `npm run build`; part of `npm run bench`)
//   BENCH_HOP_CALLS=500 node bench/browser-hop.js
// Needs Debian's chromium (sudo apt-get install -y chromium) or PLAYWRIGHT_CHROMIUM_PATH.
/* global performance -- timeInPage runs in the page */
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { createHarnessClient } from 'scenario-harness/client';
import { startChild, stopChild } from './lib/proc.js';

const CALLS = Number(process.env.BENCH_HOP_CALLS ?? 300);
const WARMUP = 50;
const URL_ = 'https://maps.bench.test/v1/ping';
const executablePath = process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

if (!existsSync(executablePath)) {
  console.error(`bench/browser-hop.js needs chromium at ${executablePath}: sudo apt-get install -y chromium (or set PLAYWRIGHT_CHROMIUM_PATH). Not measured.`);
  process.exit(process.env.CI ? 1 : 0);
}

/** Per-call milliseconds of `count` sequential fetches in the page, timed by the page itself. */
function timeInPage(page, count) {
  return page.evaluate(
    async ({ url, count }) => {
      const times = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        const response = await fetch(url);
        if ((await response.text()) !== '{"ok":true}') throw new Error(`call ${i} answered ${response.status}`);
        times.push(performance.now() - started);
      }
      return times;
    },
    { url: URL_, count },
  );
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function measure(browser, baseURL, route) {
  const context = await browser.newContext({ baseURL });
  try {
    await context.route(URL_, route);
    const page = await context.newPage();
    await page.goto('/');
    await timeInPage(page, WARMUP);
    const times = (await timeInPage(page, CALLS)).sort((a, b) => a - b);
    return { median: quantile(times, 0.5), p99: quantile(times, 0.99) };
  } finally {
    await context.close();
  }
}

const app = await startChild('browser-hop-app.js');
const baseURL = `http://127.0.0.1:${app.msg.port}`;
const browser = await chromium.launch({ executablePath, args: ARGS });
try {
  const client = createHarnessClient({ baseURL, testId: 'browser-hop' });
  const constant = (route) => route.fulfill({ status: 200, contentType: 'application/json', headers: { 'access-control-allow-origin': baseURL }, body: '{"ok":true}' });
  const throughApp = async (route) => {
    const request = route.request();
    const answer = await client.answer({ method: request.method(), url: request.url(), headers: await request.allHeaders() });
    if (!answer.answered) return route.abort('blockedbyclient');
    return route.fulfill({ status: answer.status, headers: answer.headers, body: Buffer.from(answer.bodyBase64, 'base64') });
  };
  // Alternate the two, twice, so neither gets only the machine's quiet or busy moments.
  const results = { constant: [], harness: [] };
  for (let round = 0; round < 2; round++) {
    results.constant.push(await measure(browser, baseURL, constant));
    results.harness.push(await measure(browser, baseURL, throughApp));
  }
  const best = (list) => list.reduce((a, b) => (b.median < a.median ? b : a));
  const [c, h] = [best(results.constant), best(results.harness)];
  console.log(`\nbrowser calls (${CALLS} sequential fetches in chromium, best of 2 rounds each):`);
  const row = (label, { median, p99 }) => console.log(`  ${label.padEnd(44)} median ${median.toFixed(2).padStart(6)} ms   p99 ${p99.toFixed(2).padStart(6)} ms`);
  row('route.fulfill with a constant', c);
  row('through the app (POST /__harness__/answer)', h);
  console.log(`  ${'the hop adds'.padEnd(44)} median ${(h.median - c.median).toFixed(2).padStart(6)} ms   (${(h.median / c.median).toFixed(2)}× the constant)`);
} finally {
  await browser.close();
  await stopChild(app.child);
}
