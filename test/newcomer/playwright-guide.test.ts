/**
 * docs/playwright.md followed word for word (issue 15: "a fresh folder following the README
 * verbatim works … for Playwright"): the README's quick start in a fresh folder from the packed
 * tarball, then the guide's install, files and test command, run in a real Chromium.
 *
 * The guide's browser download (`npx playwright install chromium`) is never run: the guide's
 * other way, a system Chromium through PLAYWRIGHT_CHROMIUM_PATH, is used instead (Debian's
 * /usr/bin/chromium unless the variable says otherwise). Without that Chromium the test is
 * skipped loudly on a developer machine and fails on CI, like scripts/test-browser.js.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { codeBlocks, read, section } from '../docs/markdown.js';
import { freePort, newcomerEnv, packTarball, sh, typecheck, walkthrough, withTarball, writeFiles } from './follow-the-docs.js';

const chromium = process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium';
const onCI = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI!.toLowerCase());
const hasChromium = existsSync(chromium);

if (!hasChromium && !onCI) {
  console.warn(
    [
      '╔══════════════════════════════════════════════════════════════════════╗',
      `║ NEWCOMER PLAYWRIGHT TEST SKIPPED: no chromium at ${chromium}`.padEnd(71) + '║',
      '║ docs/playwright.md was NOT followed in a browser.                    ║',
      "║ Install Debian's chromium: sudo apt-get install -y chromium          ║",
      '║ (or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium binary)               ║',
      '╚══════════════════════════════════════════════════════════════════════╝',
    ].join('\n'),
  );
}

const quickStart = walkthrough(codeBlocks(section(read('README.md'), 'Quick start (Express)')), 'examples/quick-start');
const guide = walkthrough(codeBlocks(section(read('docs/playwright.md'), 'Set up, from the quick start')), 'examples/quick-start');
const work = mkdtempSync(join(tmpdir(), 'scenario-harness-newcomer-playwright-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

test('the guide is complete: an install, the browser, three files and the test command', () => {
  expect(guide.setup).toEqual(['npm install --save-dev @playwright/test']);
  expect(guide.browser).toEqual(['npx playwright install chromium']);
  expect(guide.files.map((file) => file.path)).toEqual(['playwright.config.ts', 'tests/fixtures.ts', 'tests/profile.spec.ts']);
  expect(guide.run).toEqual(['npx playwright test']);
  // The guide's way to a system Chromium is the one this test takes.
  expect(read('docs/playwright.md')).toContain('PLAYWRIGHT_CHROMIUM_PATH=/usr/bin/chromium npx playwright test');
  expect(guide.files.find((file) => file.path === 'playwright.config.ts')?.content).toContain('process.env.PLAYWRIGHT_CHROMIUM_PATH');
});

// The peer range's lower bound is a promise too: the guide is followed again with that version pinned.
const { peerDependencies } = JSON.parse(read('package.json')) as { peerDependencies: Record<string, string> };
const oldestPlaywright = /^>=(\d+\.\d+\.\d+)$/.exec(peerDependencies['@playwright/test']!)?.[1];

test('the peer range of @playwright/test has a lower bound to test', () => {
  expect(oldestPlaywright).toMatch(/^\d+\.\d+\.\d+$/);
});

test.skipIf(!hasChromium && !onCI).each([
  ['the newest @playwright/test', (command: string) => command],
  [`the oldest @playwright/test the peer range claims (${oldestPlaywright})`, (command: string) => command.replace('@playwright/test', `@playwright/test@${oldestPlaywright}`)],
])('a fresh folder following the quick start and the guide passes its Playwright tests in Chromium, with %s', async (label, pin) => {
  if (!hasChromium) throw new Error(`No chromium at ${chromium}: CI must run the newcomer Playwright test, never skip it (sudo apt-get install -y chromium).`);
  const folder = join(work, label.includes('oldest') ? 'my-app-oldest' : 'my-app');
  const tarball = await packTarball(work);
  mkdirSync(folder);
  for (const command of [...quickStart.setup, ...guide.setup.map(pin)]) await sh(withTarball(command, tarball), { cwd: folder, env: newcomerEnv() });
  writeFiles(folder, [...quickStart.files, ...guide.files]);
  await typecheck(folder, [...quickStart.files, ...guide.files].map((file) => file.path));

  const port = await freePort();
  const env = newcomerEnv({ PORT: String(port), PLAYWRIGHT_CHROMIUM_PATH: chromium });
  const { stdout } = await sh(guide.run[0]!, { cwd: folder, env });
  // eslint-disable-next-line no-control-regex -- colours, should the environment force them
  const report = stdout.replace(/\x1b\[[0-9;]*m/g, '');
  expect(report).toMatch(/\b2 passed\b/);
  expect(report).not.toMatch(/\b(failed|flaky|skipped)\b/);
}, 240_000);
