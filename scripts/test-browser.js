#!/usr/bin/env node
/**
 * The browser suite (test/browser) in Debian's chromium; the last step of `npm test`.
 * Without chromium it skips loudly on a developer machine and FAILS on CI (CI set), where
 * .ci/run installs it: a browser suite that silently skips on CI is a suite that never runs.
 *
 * Usage: node scripts/test-browser.js [playwright test options, e.g. --repeat-each 3 or a file filter]
 * Env: PLAYWRIGHT_CHROMIUM_PATH (default /usr/bin/chromium), BROWSER_TEST_PORT (default 4319), BROWSER_TEST_SHOP_ONLY=1 (the shop project alone: no Next.js servers, as a git worktree with linked node_modules needs).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const chromium = process.env.PLAYWRIGHT_CHROMIUM_PATH || '/usr/bin/chromium';
const INSTALL = 'sudo apt-get install -y chromium';

function box(lines) {
  const width = Math.max(...lines.map((line) => line.length));
  const rule = '═'.repeat(width + 2);
  return [`╔${rule}╗`, ...lines.map((line) => `║ ${line.padEnd(width)} ║`), `╚${rule}╝`].join('\n');
}

const onCI = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI.toLowerCase());

if (!existsSync(chromium)) {
  if (onCI) {
    console.error(
      box([
        `BROWSER SUITE FAILED: no chromium at ${chromium}.`,
        'CI must run the browser suite, never skip it.',
        `Install it with: ${INSTALL}`,
        '(or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium binary)',
      ]),
    );
    process.exit(1);
  }
  console.warn(
    box([
      `BROWSER SUITE SKIPPED: no chromium at ${chromium}.`,
      'The Playwright tests in test/browser did NOT run.',
      `Install Debian's chromium with: ${INSTALL}`,
      '(or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium binary),',
      'then run: node scripts/test-browser.js',
    ]),
  );
  process.exit(0);
}

// The Playwright CLI of this project's @playwright/test, without npx in between.
const cli = fileURLToPath(import.meta.resolve('@playwright/test/cli'));
const result = spawnSync(process.execPath, [cli, 'test', '-c', 'test/browser/playwright.config.ts', ...process.argv.slice(2)], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PLAYWRIGHT_CHROMIUM_PATH: chromium },
});
if (result.error) {
  console.error(`[test-browser] Failed to start Playwright: ${result.error.message}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
