import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const APP = fileURLToPath(new URL('./fixtures/disabled-app.ts', import.meta.url));

/** Start the app with exactly these variables (and PATH); what it printed. */
async function startApp(env: Record<string, string>): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', APP], { env: { PATH: process.env.PATH ?? '', ...env } });
  expect(stdout).toMatch(/ready\n$/);
  return stdout + stderr;
}

const NOTE =
  'disabled: enabled is false (HARNESS_ENABLED is not set), so no outgoing call is intercepted and /__scenario__ is not served (the app answers it, often with 404). ' +
  "To turn it on for tests, start the app with HARNESS_ENABLED=true (where your code creates the harness, with enabled: process.env.HARNESS_ENABLED === 'true'; the Nuxt module and scenario-harness/register read the variable themselves); never in production. " +
  '(Logged once; HARNESS_ENABLED=false or announce: false silences it.)';

test('an app started without HARNESS_ENABLED says once that the harness is off, why and how to turn it on', async () => {
  expect(await startApp({})).toBe(`[scenario-harness] ${NOTE}\nready\n`);
  expect(await startApp({ NODE_ENV: 'development' })).toBe(`[scenario-harness] ${NOTE}\nready\n`);
});

test('a HARNESS_ENABLED that is not "true" is named in the line', async () => {
  expect(await startApp({ HARNESS_ENABLED: '1' })).toContain('disabled: enabled is false (HARNESS_ENABLED is "1", not "true"), so no outgoing call is intercepted');
});

test('production, a test runner, HARNESS_ENABLED=false and announce: false stay silent', async () => {
  const silent: Record<string, string>[] = [{ NODE_ENV: 'production' }, { NODE_ENV: 'test' }, { HARNESS_ENABLED: 'false' }, { ANNOUNCE: 'false' }];
  const printed = await Promise.all(silent.map(startApp));
  expect(printed).toEqual(['ready\n', 'ready\n', 'ready\n', 'ready\n']);
});

test('an enabled app prints its start-up line, not the disabled one', async () => {
  const printed = await startApp({ HARNESS_ENABLED: 'true' });
  expect(printed).not.toContain('disabled');
  expect(printed).toMatch(/^\[scenario-harness\] /);
});
