import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures.js';

interface ReportAttachment {
  name: string;
  contentType: string;
  body?: string;
  path?: string;
}
interface ReportResult {
  status: string;
  errors: { message?: string }[];
  attachments: ReportAttachment[];
}
interface ReportSpec {
  title: string;
  tests: { results: ReportResult[] }[];
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLI = createRequire(import.meta.url).resolve('@playwright/test/cli');

/** Run the failing specs in a child Playwright process against this suite's shop; its JSON report and its terminal output. */
async function runFailingSpecs(baseURL: string): Promise<{ report: { suites: { suites?: { specs: ReportSpec[] }[]; specs: ReportSpec[] }[] }; output: string; code: number | null }> {
  const dir = mkdtempSync(join(tmpdir(), 'harness-failing-'));
  const reportFile = join(dir, 'report.json');
  // The parent's worker variables (TEST_WORKER_INDEX, PW_*) would make the child think it is a worker.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(PW_|TEST_|PLAYWRIGHT_(?!CHROMIUM_PATH))/.test(name)));
  const child = spawn(process.execPath, [CLI, 'test', '-c', 'test/browser/failing/playwright.config.ts'], {
    cwd: ROOT,
    env: { ...env, FAILING_BASE_URL: baseURL, FAILING_REPORT: reportFile, FAILING_OUTPUT: join(dir, 'results'), FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => child.once('error', reject).once('exit', resolve));
  return { report: JSON.parse(readFileSync(reportFile, 'utf8')) as never, output, code };
}

const bodyOf = (attachment: ReportAttachment | undefined) =>
  attachment?.body !== undefined ? Buffer.from(attachment.body, 'base64').toString('utf8') : attachment?.path !== undefined ? readFileSync(attachment.path, 'utf8') : undefined;

test('a failed test gets its journal attached to the report: a readable summary and every entry as JSON', async ({ baseURL }, testInfo) => {
  // A second Playwright run (its own Chromium) beside the suite's four workers: 55-72 s seen on two cores.
  test.setTimeout(240_000);
  const { report, output, code } = await runFailingSpecs(baseURL!);
  await testInfo.attach('child playwright output', { body: output, contentType: 'text/plain' });
  expect(code, output).toBe(1);

  const specs = report.suites.flatMap((suite) => [...suite.specs, ...(suite.suites ?? []).flatMap((inner) => inner.specs)]);
  const failed = specs.find((spec) => spec.title.startsWith('a declined big order'))!.tests[0]!.results[0]!;
  const passed = specs.find((spec) => spec.title.startsWith('a passing test'))!.tests[0]!.results[0]!;
  expect(failed.status).toBe('failed');
  expect(passed.status).toBe('passed');
  expect(passed.attachments.filter(({ name }) => name.startsWith('scenario-harness'))).toEqual([]);

  // The failure itself names the near miss.
  expect(failed.errors[0]?.message).toContain('body.amount: expected 5000, received 125000');

  const summary = bodyOf(failed.attachments.find(({ name }) => name === 'scenario-harness calls'))?.trimEnd();
  expect(summary).toMatch(
    new RegExp(
      [
        '^2 calls of test "[^"]+", oldest first \\(the full entries are in "scenario-harness journal"\\):',
        'GET https://users\\.example\\.test/me → 200 by default#0',
        'POST https://payments\\.example\\.test/v1/charges → 402 by paymentDeclined#1$',
      ].join('\n'),
    ),
  );
  const journalAttachment = failed.attachments.find(({ name }) => name === 'scenario-harness journal');
  expect(journalAttachment?.contentType).toBe('application/json');
  const journal = JSON.parse(bodyOf(journalAttachment)!) as { testId: string; calls: { method: string; requestBody?: unknown; requestHeaders: Record<string, string> }[] };
  expect(summary).toContain(`of test "${journal.testId}"`);
  expect(journal.calls.map(({ method }) => method)).toEqual(['GET', 'POST']);
  expect(journal.calls[1]!.requestBody).toEqual({ amount: 125000, currency: 'eur' });
  // The terminal report names the summary's file under the failure (Playwright would cut a text body at 300 characters)
  // and prints the whole summary with the failed test's stderr.
  expect(output).toContain('attachment #1: scenario-harness calls (text/plain)');
  expect(output).toContain(`[scenario-harness] ${summary}`);
});
